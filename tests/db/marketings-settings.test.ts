import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { pngHeaderOnly } from "../support/png";
import { DEFAULT_LEAK_SETTINGS, leakSettingsOf } from "~/models/leaks/detect-leak";

// Settings › Marketings over real HTTP: each campaign's coupon settings and
// the share texts and images (bad input is a 422 naming the field and changes
// nothing; another shop's image cannot be picked), and the affiliate's links
// page turning them into share buttons.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const MARKETINGS = `/admin/settings/marketings?_data=${encodeURIComponent("routes/$role.settings.marketings")}`;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);
const origin = () => ({ origin: server.url("").replace(/\/$/, "") });

async function adminOf(shopId: string) {
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD }, origin())).status).toBe(302);
  return client;
}

async function upload(client: HttpClient, bytes: Buffer) {
  const form = new FormData();
  form.set("intent", "share_upload");
  form.set("image", new Blob([new Uint8Array(bytes)]), "share.png");
  return client.request(MARKETINGS, { method: "POST", body: form, headers: origin() });
}

const share = {
  intent: "share",
  x: "Get {{code}} at {{link}}",
  facebook: "",
  whatsapp: "Look: {{link}}",
  emailSubject: "A treat for you",
  emailBody: "Use code {{code}}: {{link}}",
  images: [] as string[],
};

describe("Settings › Marketings over HTTP", () => {
  it("saves a campaign's coupon settings and refuses bad ones with the field named", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id, { name: "Spring" });
    const admin = await adminOf(shop.id);
    const page = await admin.get(`${MARKETINGS}&campaign=${campaign.id}`);
    expect(await page.json()).toMatchObject({
      coupon: { campaignId: campaign.id, enabled: false, discountType: "percentage", value: "10" },
    });

    const form = {
      intent: "coupon",
      campaignId: campaign.id,
      enabled: true,
      discountType: "percentage",
      value: "12.5",
      prefix: "spring-",
      oncePerCustomer: false,
    };
    const ok = await admin.postJson(MARKETINGS, form, origin());
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await ok.json()).toEqual({ coupon: { ...form, intent: undefined, prefix: "SPRING-" } });
    expect(await getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      couponEnabled: true,
      couponDiscountType: "percentage",
      couponDiscountValue: 1250,
      couponPrefix: "SPRING-",
      couponOncePerCustomer: false,
    });

    for (const [change, field] of [
      [{ value: "101" }, "value"],
      [{ value: "0" }, "value"],
      [{ value: "ten" }, "value"],
      [{ prefix: "two words" }, "prefix"],
      [{ discountType: "free" }, "discountType"],
    ] as const) {
      const res = await admin.postJson(MARKETINGS, { ...form, ...change }, origin());
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(Object.keys((await res.json()).error.fields)).toContain(field);
    }
    // A fixed amount is stored in minor units.
    await admin.postJson(MARKETINGS, { ...form, discountType: "fixed_amount", value: "5" }, origin());
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).couponDiscountValue).toBe(500);
    // Another shop's campaign is not found.
    const other = await buildCampaign((await buildShop()).id);
    expect((await admin.postJson(MARKETINGS, { ...form, campaignId: other.id }, origin())).status).toBe(404);
  });

  it("refuses coupon changes of a campaign over the plan's limit", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    const start = Date.now() - 60_000;
    const rows = [];
    for (let i = 0; i < 4; i++) {
      rows.push(
        await getDb().campaign.create({
          data: { shopId: shop.id, name: `C${i}`, status: "active", createdAt: new Date(start + i * 1000) },
        }),
      );
    }
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    const admin = await adminOf(shop.id);
    const form = {
      intent: "coupon",
      campaignId: rows[3]!.id,
      enabled: true,
      discountType: "percentage",
      value: "10",
      prefix: "",
      oncePerCustomer: true,
    };
    expect((await admin.postJson(MARKETINGS, form, origin())).status).toBe(403);
    expect((await admin.postJson(MARKETINGS, { ...form, campaignId: rows[0]!.id }, origin())).status).toBe(200);
  });

  it("saves share texts and images; an image that is not this shop's is refused", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const other = await adminOf((await buildShop()).id);
    const ours = ((await (await upload(admin, PNG)).json()) as { uploaded: string }).uploaded;
    const theirs = ((await (await upload(other, PNG)).json()) as { uploaded: string }).uploaded;
    expect(ours).toMatch(new RegExp(`^/portal-assets/${shop.id}/`));

    const ok = await admin.postJson(MARKETINGS, { ...share, images: [ours] }, origin());
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).share).toMatchObject(
      { x: share.x, images: [ours] },
    );

    for (const images of [[theirs], ["https://elsewhere.example/a.png"], Array(7).fill(ours)]) {
      const res = await admin.postJson(MARKETINGS, { ...share, x: "changed", images }, origin());
      expect(res.status).toBe(422);
      expect(Object.keys((await res.json()).error.fields)).toContain("images");
    }
    const tooLong = await admin.postJson(MARKETINGS, { ...share, x: "x".repeat(281) }, origin());
    expect(Object.keys((await tooLong.json()).error.fields)).toContain("x");
    expect(JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).share.x).toBe(
      share.x,
    );
    expect((await upload(admin, pngHeaderOnly(50_000, 50_000))).status).toBe(400);
    const notImage = await upload(admin, Buffer.from("<svg/>"));
    expect(notImage.status).toBe(400);
  });

  it("saves leak watch's switch and thresholds, which the leak check reads; bad input is a 422 per field", async () => {
    const shop = await buildShop();
    await getDb().shop.update({ where: { id: shop.id }, data: { settings: JSON.stringify({ share: { x: "kept" } }) } });
    const admin = await adminOf(shop.id);
    // The defaults until saved, and reading the page writes nothing.
    const before = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect((await (await admin.get(MARKETINGS)).json()).leakWatch).toEqual(DEFAULT_LEAK_SETTINGS);
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).updatedAt).toEqual(before.updatedAt);

    const form = {
      intent: "leak_watch",
      enabled: false,
      windowHours: 48,
      minOrders: 3,
      minSharePercent: 60,
      minSiteOrders: 1,
      couponSites: ["https://www.Deals.example/codes", "coupons.example"],
    };
    const ok = await admin.postJson(MARKETINGS, form, origin());
    expect(ok.status, await ok.clone().text()).toBe(200);
    const saved = { ...form, intent: undefined, couponSites: ["deals.example", "coupons.example"] };
    expect(await ok.json()).toEqual({ leakWatch: { ...saved, intent: undefined } });
    const settings = (await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings;
    const { intent: _intent, ...stored } = saved;
    expect(leakSettingsOf(settings)).toEqual(stored);
    // The other settings keys are kept.
    expect(JSON.parse(settings).share).toEqual({ x: "kept" });

    for (const [change, field] of [
      [{ windowHours: 0 }, "windowHours"],
      [{ windowHours: 1.5 }, "windowHours"],
      [{ minOrders: 1 }, "minOrders"],
      [{ minSharePercent: 101 }, "minSharePercent"],
      [{ minSiteOrders: "two" }, "minSiteOrders"],
      [{ enabled: "yes" }, "enabled"],
      [{ couponSites: ["not a host"] }, "couponSites.0"],
    ] as const) {
      const res = await admin.postJson(MARKETINGS, { ...form, enabled: true, ...change }, origin());
      expect(res.status, JSON.stringify(change)).toBe(422);
      const { error } = (await res.json()) as { error: { fields: Record<string, string> } };
      expect(Object.keys(error.fields), JSON.stringify(change)).toContain(field);
      expect(error.fields[field]).toMatch(/\w/);
    }
    const badHost = await admin.postJson(MARKETINGS, { ...form, couponSites: ["nope"] }, origin());
    expect((await badHost.json()).error.fields["couponSites.0"]).toBe("Enter a host name such as retailmenot.com");
    // Nothing changed by the refused ones.
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).toBe(settings);
  });

  it("gives the affiliate share buttons with the texts filled in and the images", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const admin = await adminOf(shop.id);
    const image = ((await (await upload(admin, PNG)).json()) as { uploaded: string }).uploaded;
    expect((await admin.postJson(MARKETINGS, { ...share, images: [image] }, origin())).status).toBe(200);

    const affiliate = await buildAffiliate(shop.id, campaign.id, {
      referralCode: "NORA",
      password: "a-long-password-1",
    });
    const handle = shop.domain.replace(".myshopify.com", "");
    const portal = new HttpClient(server.url);
    const login = await portal.postForm(`/portal/${handle}/login`, {
      email: affiliate.email,
      password: "a-long-password-1",
    });
    expect(login.status).toBe(302);
    const res = await portal.get(`/account/links?_data=${encodeURIComponent("routes/account.links")}`);
    expect(res.status).toBe(200);
    const data = (await res.json()) as {
      referralLink: string;
      share: { intents: Record<string, string>; images: string[] };
    };
    const link = data.referralLink;
    expect(new URL(data.share.intents.x!).searchParams.get("text")).toBe(`Get NORA at ${link}`);
    expect(new URL(data.share.intents.whatsapp!).searchParams.get("text")).toBe(`Look: ${link}`);
    expect(new URL(data.share.intents.facebook!).searchParams.get("u")).toBe(link);
    expect(data.share.intents.email).toBe(
      `mailto:?subject=${encodeURIComponent("A treat for you")}&body=${encodeURIComponent(`Use code NORA: ${link}`)}`,
    );
    expect(data.share.images).toEqual([image]);
  });
});
