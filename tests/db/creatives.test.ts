import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { pngHeaderOnly } from "../support/png";

// Creatives over real HTTP: the streamed upload and its checks (size, type
// by content), thumbnails made by sharp, the files behind the storage
// interface, what each affiliate may see, and the counting of downloads and
// copies the merchant reads.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "creatives-"));
applyTestEnv({ DATA_DIR: dataDir });
useTestDatabase();
const server = useTestServer();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PASSWORD = "affiliate password 1";
type Shop = Awaited<ReturnType<typeof buildShop>>;
type Campaign = Awaited<ReturnType<typeof buildCampaign>>;

let shop: Shop;
let campaign: Campaign;
let admin: HttpClient;

async function merchant(s: Shop) {
  const user = await buildUser(s.id);
  const c = new HttpClient(server.url);
  expect(location(await c.postForm("/login", { email: user.email, password: TEST_PASSWORD }))).toBe("/admin/dashboard");
  return c;
}

async function affiliateClient(s: Shop, campaignId: string) {
  const aff = await buildAffiliate(s.id, campaignId);
  await getDb().affiliate.update({ where: { id: aff.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  const c = new HttpClient(server.url);
  const handle = s.domain.replace(".myshopify.com", "");
  expect((await c.postForm(`/portal/${handle}/login`, { email: aff.email, password: PASSWORD })).status).toBe(302);
  return { c, aff };
}

beforeEach(async () => {
  shop = await buildShop();
  campaign = await buildCampaign(shop.id);
  admin = await merchant(shop);
});

const banner = (width = 1600, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: "#e85d3f" } })
    .png()
    .toBuffer();
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

function upload(c: HttpClient, name: string, body: BodyInit, headers: Record<string, string> = {}) {
  return c.request(`/admin/creatives/upload?name=${encodeURIComponent(name)}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/octet-stream", ...headers },
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function uploaded(c: HttpClient, name: string, bytes: Buffer): Promise<string> {
  const res = await upload(c, name, new Uint8Array(bytes));
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const storedFiles = (shopId: string) => {
  try {
    return readdirSync(path.join(dataDir, "creatives", shopId)).sort();
  } catch {
    return [];
  }
};

describe("uploading", () => {
  it("stores an image with thumbnails in three sizes and serves them publicly", async () => {
    const id = await uploaded(admin, "Summer_sale-banner.PNG", await banner());
    const creative = await getDb().creative.findUniqueOrThrow({ where: { id } });
    expect(creative).toMatchObject({
      shopId: shop.id,
      kind: "image",
      title: "Summer sale banner",
      mimeType: "image/png",
      width: 1600,
      height: 900,
      destinationPath: "/",
      allCampaigns: true,
      active: true,
    });
    const thumbs = JSON.parse(creative.thumbnails) as Record<string, string>;
    expect(Object.keys(thumbs).sort()).toEqual(["1200", "160", "480"]);
    expect(storedFiles(shop.id)).toEqual([creative.fileName, ...Object.values(thumbs)].sort());
    for (const [width, name] of Object.entries(thumbs)) {
      const res = await fetch(server.url(`/creative-files/${shop.id}/${name}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.width).toBe(Number(width));
      expect(meta.height).toBe(Math.round((Number(width) * 900) / 1600));
    }
    const original = await fetch(server.url(`/creative-files/${shop.id}/${creative.fileName}`));
    expect(original.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await original.arrayBuffer()).equals(await banner())).toBe(true);
  });

  it("never makes a thumbnail larger than the image", async () => {
    const id = await uploaded(admin, "badge.png", await banner(300, 300));
    const thumbs = JSON.parse((await getDb().creative.findUniqueOrThrow({ where: { id } })).thumbnails);
    const sizes = await Promise.all(
      Object.values(thumbs as Record<string, string>).map(async (name) => {
        const bytes = await (await fetch(server.url(`/creative-files/${shop.id}/${name}`))).arrayBuffer();
        return (await sharp(Buffer.from(bytes)).metadata()).width;
      }),
    );
    expect(sizes.sort()).toEqual([160, 300, 300]);
  });

  it("keeps a PDF as a file that is not public", async () => {
    const id = await uploaded(admin, "brochure.pdf", PDF);
    const creative = await getDb().creative.findUniqueOrThrow({ where: { id } });
    expect(creative).toMatchObject({
      kind: "file",
      mimeType: "application/pdf",
      sizeBytes: PDF.length,
      thumbnails: "{}",
    });
    expect((await fetch(server.url(`/creative-files/${shop.id}/${creative.fileName}`))).status).toBe(404);
    // The merchant opens it through their own door; another shop's merchant cannot.
    const own = await admin.get(`/admin/creatives/${id}/file`);
    expect(own.status).toBe(200);
    expect(Buffer.from(await own.arrayBuffer()).equals(PDF)).toBe(true);
    const other = await merchant(await buildShop());
    expect((await other.get(`/admin/creatives/${id}/file`)).status).toBe(404);
  });

  it("takes a file larger than an image may be, streamed without a declared length", async () => {
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(PDF);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) return controller.close();
        sent += 1;
        controller.enqueue(sent === 1 ? chunk : new Uint8Array(1024 * 1024));
      },
    });
    const res = await upload(admin, "Brand kit.pdf", stream);
    expect(res.status).toBe(200);
    const creative = await getDb().creative.findFirstOrThrow();
    expect(creative).toMatchObject({ kind: "file", sizeBytes: 12 * 1024 * 1024, originalName: "Brand kit.pdf" });
  });

  it.each([
    ["an SVG named .png", "evil.png", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 400],
    ["a zip named .pdf", "brochure.pdf", Buffer.from("PK\x03\x04rest-of-zip"), 400],
    ["an executable", "tool.exe", Buffer.from("MZ\x90\x00"), 400],
    ["an empty file", "empty.png", Buffer.alloc(0), 400],
    ["a PNG header with nothing behind it", "broken.png", Buffer.from("89504e470d0a1a0a0000", "hex"), 400],
    // More pixels than a creative needs (4096 × 4096): refused from the header.
    ["a 50000 × 50000 PNG of a few bytes", "bomb.png", pngHeaderOnly(50_000, 50_000), 400],
    ["a 5000 × 5000 PNG", "large.png", pngHeaderOnly(5000, 5000), 400],
    ["a PNG whose pixels are cut off", "cut.png", pngHeaderOnly(400, 400), 400],
  ])("refuses %s and stores nothing", async (_label, name, bytes, status) => {
    const res = await upload(admin, name, new Uint8Array(bytes));
    expect(res.status).toBe(status);
    expect((await res.json()).error.message).toBeTruthy();
    expect(await getDb().creative.count()).toBe(0);
    expect(storedFiles(shop.id)).toEqual([]);
    expect(readdirSync(path.join(dataDir, "tmp"))).toEqual([]);
  });

  it("refuses an image over 10 MB whether it says its length or streams it", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    (await banner()).copy(big);
    const declared = await upload(admin, "huge.png", new Uint8Array(big));
    expect(declared.status).toBe(413);
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(await banner(20, 20));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const streamed = await upload(admin, "huge.png", stream);
    expect(streamed.status).toBe(413);
    expect(await getDb().creative.count()).toBe(0);
    expect(readdirSync(path.join(dataDir, "tmp"))).toEqual([]);
  });

  it("is for merchants with the creatives permission only", async () => {
    const staff = await buildUser(shop.id, { role: "staff", email: "staff@creatives.example", permissions: ["sales"] });
    const c = new HttpClient(server.url);
    await c.postForm("/staff/login", { email: staff.email, password: TEST_PASSWORD });
    expect((await upload(c, "a.png", new Uint8Array(await banner(20, 20)))).status).toBe(403);
    expect((await c.get("/staff/creatives")).status).toBe(403);
    const { c: affiliate } = await affiliateClient(shop, campaign.id);
    expect((await upload(affiliate, "a.png", new Uint8Array(await banner(20, 20)))).status).toBe(302);
    expect(await getDb().creative.count()).toBe(0);
  });
});

const save = (c: HttpClient, id: string, form: Record<string, unknown>) =>
  c.postJson(`/admin/creatives/${id}?_data=routes%2F%24role.creatives.%24id`, { intent: "save", form });

describe("the merchant's form", () => {
  it("makes a text snippet whose caption carries each affiliate's link", async () => {
    const res = await save(admin, "new", {
      kind: "text",
      title: "Instagram caption",
      category: "Social",
      destination: `https://${shop.domain}/products/summer-hat`,
      body: "Summer is here! Shop the hat: {link}",
    });
    expect(res.status).toBe(204);
    const id = res.headers.get("x-remix-redirect")!.split("/").pop()!;
    expect(await getDb().creative.findUniqueOrThrow({ where: { id } })).toMatchObject({
      kind: "text",
      destinationPath: "/products/summer-hat",
    });
    const { c, aff } = await affiliateClient(shop, campaign.id);
    const html = await (await c.get("/account/creatives")).text();
    expect(html).toContain("Shop the hat: http");
    expect(html).toContain(`/${aff.referralCode}?to=%2Fproducts%2Fsummer-hat`);
  });

  it("refuses a link off the store, a video that is not https, and another shop's campaign", async () => {
    const text = { kind: "text", title: "T", body: "x {link}" };
    const off = await save(admin, "new", { ...text, destination: "https://evil.example/x" });
    expect(off.status).toBe(422);
    expect((await off.json()).error.fields.destination).toBeTruthy();
    const video = await save(admin, "new", { kind: "video", title: "V", videoUrl: "javascript:alert(1)" });
    expect(video.status).toBe(422);
    const other = await buildShop();
    const theirs = await buildCampaign(other.id);
    const campaigns = await save(admin, "new", { ...text, allCampaigns: false, campaignIds: [theirs.id] });
    expect(campaigns.status).toBe(422);
    const image = await save(admin, "new", { kind: "image", title: "I" });
    expect(image.status).toBe(400);
    expect(await getDb().creative.count()).toBe(0);
  });
});

describe("what affiliates see", () => {
  it("shows a campaign's creatives only to that campaign, and nothing of another shop", async () => {
    const everyone = await uploaded(admin, "everyone.png", await banner(400, 200));
    const vip = await buildCampaign(shop.id, { name: "VIP" });
    const vipOnly = await uploaded(admin, "vip-only.png", await banner(400, 200));
    expect(
      (await save(admin, vipOnly, { kind: "image", title: "VIP only", allCampaigns: false, campaignIds: [vip.id] }))
        .status,
    ).toBe(200);
    const hidden = await uploaded(admin, "hidden.png", await banner(400, 200));
    expect((await save(admin, hidden, { kind: "image", title: "Hidden one", active: false })).status).toBe(200);
    const other = await buildShop();
    const otherCampaign = await buildCampaign(other.id);
    const foreign = await uploaded(await merchant(other), "foreign.png", await banner(400, 200));

    const { c: regular } = await affiliateClient(shop, campaign.id);
    const page = await (await regular.get("/account/creatives")).text();
    expect(page).toContain("everyone");
    expect(page).not.toContain("VIP only");
    expect(page).not.toContain("Hidden one");
    expect(page).not.toContain("foreign");
    for (const id of [vipOnly, hidden, foreign]) {
      expect((await regular.get(`/account/creatives/${id}/download`)).status).toBe(404);
      expect((await regular.postForm("/account/creatives", { id, action: "embed" })).status).toBe(404);
    }
    expect((await regular.get(`/account/creatives/${everyone}/download`)).status).toBe(200);

    const { c: vipAffiliate } = await affiliateClient(shop, vip.id);
    expect(await (await vipAffiliate.get("/account/creatives")).text()).toContain("VIP only");
    const { c: otherAffiliate } = await affiliateClient(other, otherCampaign.id);
    const theirs = await (await otherAffiliate.get("/account/creatives")).text();
    expect(theirs).toContain("foreign");
    expect(theirs).not.toContain("everyone");
    // The merchant of one shop cannot open the other's creative either.
    expect((await admin.get(`/admin/creatives/${foreign}`)).status).toBe(404);
    expect((await save(admin, foreign, { kind: "image", title: "Mine now" })).status).toBe(404);
  });

  it("gives an embed code with the affiliate's link and the image, escaped", async () => {
    const id = await uploaded(admin, "banner.png", await banner(600, 300));
    expect(
      (await save(admin, id, { kind: "image", title: 'Sale "50%" <now>', destination: "/collections/sale" })).status,
    ).toBe(200);
    const { c, aff } = await affiliateClient(shop, campaign.id);
    const html = await (await c.get("/account/creatives")).text();
    const code = html.match(/data-testid="embed-code"[^>]*>([^<]*)</)?.[1] ?? "";
    // The page escapes the code once more inside the textarea.
    const embed = code
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
    expect(embed).toContain(`href="${process.env.SHOPIFY_APP_URL}/r/`);
    expect(embed).toContain(`/${aff.referralCode}?to=%2Fcollections%2Fsale"`);
    expect(embed).toContain('alt="Sale &quot;50%&quot; &lt;now&gt;"');
    expect(embed).toContain('width="600" height="300"');
    expect(embed).toMatch(new RegExp(`src="[^"]+/creative-files/${shop.id}/[0-9a-f]{8}-banner\\.png"`));
  });

  it("pages the gallery on the server", async () => {
    for (let i = 1; i <= 14; i++) {
      await save(admin, "new", { kind: "text", title: `Snippet number ${i}`, body: "Go {link}" });
    }
    const { c } = await affiliateClient(shop, campaign.id);
    const first = await (await c.get("/account/creatives")).text();
    expect(first.match(/data-testid="creative-card"/g)).toHaveLength(12);
    expect(first).toContain("Snippet number 14");
    expect(first).not.toContain("Snippet number 2<");
    const second = await (await c.get("/account/creatives?page=2")).text();
    expect(second.match(/data-testid="creative-card"/g)).toHaveLength(2);
    expect(second).toContain("Snippet number 1<");
    const list = (await (
      await admin.get("/admin/creatives?kind=text&_data=routes%2F%24role.creatives._index")
    ).json()) as {
      rows: unknown[];
      total: number;
      pageCount: number;
    };
    expect([list.rows.length, list.total, list.pageCount]).toEqual([14, 14, 1]);
    const images = (await (
      await admin.get("/admin/creatives?kind=image&_data=routes%2F%24role.creatives._index")
    ).json()) as {
      total: number;
    };
    expect(images.total).toBe(0);
  });
});

describe("counting", () => {
  it("counts each affiliate's download and copy once a day and shows the counts to the merchant", async () => {
    const id = await uploaded(admin, "banner.png", await banner(400, 200));
    const { c: first } = await affiliateClient(shop, campaign.id);
    const { c: second } = await affiliateClient(shop, campaign.id);
    const download = await first.get(`/account/creatives/${id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain('filename="banner.png"');
    expect(Buffer.from(await download.arrayBuffer()).equals(await banner(400, 200))).toBe(true);
    await first.get(`/account/creatives/${id}/download`);
    await second.get(`/account/creatives/${id}/download`);
    for (let i = 0; i < 3; i++) {
      expect((await first.postForm("/account/creatives", { id, action: "embed" })).status).toBe(200);
    }
    expect((await second.postForm("/account/creatives", { id, action: "copy" })).status).toBe(200);
    // A body that names another affiliate changes nothing: the session says who counts.
    await first.postForm("/account/creatives", { id, action: "embed", affiliateId: "someone-else" });

    const uses = await getDb().creativeUse.groupBy({
      by: ["action"],
      _count: { _all: true },
      orderBy: { action: "asc" },
    });
    expect(uses.map((u) => [u.action, u._count._all])).toEqual([
      ["copy", 1],
      ["download", 2],
      ["embed", 1],
    ]);
    const data = (await (await admin.get("/admin/creatives?_data=routes%2F%24role.creatives._index")).json()) as {
      rows: { id: string; uses: Record<string, number> }[];
    };
    expect(data.rows.find((r) => r.id === id)?.uses).toEqual({ download: 2, embed: 1, copy: 1 });
    const detail = await (await admin.get(`/admin/creatives/${id}?_data=routes%2F%24role.creatives.%24id`)).json();
    expect(detail.uses).toEqual({ download: 2, embed: 1, copy: 1 });
  });

  it("refuses counts from no session, another shop's affiliate, and a cross-site page", async () => {
    const id = await uploaded(admin, "banner.png", await banner(400, 200));
    const anonymous = new HttpClient(server.url);
    expect((await anonymous.postForm("/account/creatives", { id, action: "embed" })).status).toBe(302);
    expect((await anonymous.get(`/account/creatives/${id}/download`)).status).toBe(302);
    const other = await buildShop();
    const { c: outsider } = await affiliateClient(other, (await buildCampaign(other.id)).id);
    expect((await outsider.postForm("/account/creatives", { id, action: "embed" })).status).toBe(404);
    const { c } = await affiliateClient(shop, campaign.id);
    const forged = await c.postForm("/account/creatives", { id, action: "embed" }, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(await getDb().creativeUse.count()).toBe(0);
  });

  it("removes the files with the creative", async () => {
    const id = await uploaded(admin, "banner.png", await banner(400, 200));
    expect(storedFiles(shop.id)).toHaveLength(4);
    const res = await admin.postJson(`/admin/creatives/${id}?_data=routes%2F%24role.creatives.%24id`, {
      intent: "delete",
    });
    expect(res.status).toBe(204);
    expect(await getDb().creative.count()).toBe(0);
    expect(storedFiles(shop.id)).toEqual([]);
  });
});
