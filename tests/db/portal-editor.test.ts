import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { pngHeaderOnly, solidPng } from "../support/png";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The Portals screens over real HTTP: the custom domain setting, saving and
// publishing page content (URL-shape check, path repair), image uploads to
// disk behind the storage interface, and who may use them.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-editor-"));
applyTestEnv({ DATA_DIR: dataDir });
useTestDatabase();
const server = useTestServer();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

let shop: Awaited<ReturnType<typeof buildShop>>;
let handle: string;
let admin: HttpClient;

beforeEach(async () => {
  // Pro: the custom domain is one of its features.
  shop = await buildShop({ pricingPlan: "pro" });
  handle = shop.domain.replace(".myshopify.com", "");
  await buildCampaign(shop.id);
  const user = await buildUser(shop.id, { email: "admin@editor.example" });
  admin = new HttpClient(server.url);
  expect(location(await admin.postForm("/login", { email: user.email, password: TEST_PASSWORD }))).toBe(
    "/admin/dashboard",
  );
});

// A whole 1 × 1 PNG (uploads are decoded before they are stored).
const PNG = solidPng(1, 1, [255, 255, 255]);

function upload(c: HttpClient, kind: string, name: string, bytes: Buffer, type = "image/png") {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("image", new Blob([new Uint8Array(bytes)], { type }), name);
  return c.request(`/admin/portals/${kind}?_data=routes%2F%24role.portals.%24id`, { method: "POST", body: form });
}

/** Saves as the editor does, from the page's current version unless told another. */
async function save(c: HttpClient, kind: string, intent: "save" | "publish", content: unknown, version?: number) {
  const current =
    version ??
    (await getDb().portalPage.findUnique({ where: { shopId_kind: { shopId: shop.id, kind } } }))?.version ??
    0;
  return c.postForm(`/admin/portals/${kind}?_data=routes%2F%24role.portals.%24id`, {
    intent,
    version: String(current),
    content: JSON.stringify(content),
  });
}

const hero = (over: Record<string, unknown> = {}) => ({
  type: "hero",
  elements: { heading: "Ride with Velo", text: "Twelve percent on every bike." },
  link: { label: "Apply", url: `/portal/x/signup` },
  ...over,
});

describe("Portals list and custom domain", () => {
  it("lists the three pages and saves a valid, unused domain", async () => {
    const page = await admin.get("/admin/portals");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const label of ["Landing page", "Sign-up page", "Login page"]) expect(html).toContain(label);
    const bad = await admin.postForm("/admin/portals?index&_data=routes%2F%24role.portals._index", {
      portalDomain: "not a domain",
    });
    expect(bad.status).toBe(422);
    const shopify = await admin.postForm("/admin/portals?index&_data=routes%2F%24role.portals._index", {
      portalDomain: "x.myshopify.com",
    });
    expect(shopify.status).toBe(422);
    const ok = await admin.postForm("/admin/portals?index&_data=routes%2F%24role.portals._index", {
      portalDomain: "https://Affiliates.Velo.example/",
    });
    expect(ok.status).toBe(200);
    // Saved as asked for, serving nothing until verified (tests/db/portal-domains.test.ts).
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({
      portalDomain: null,
      portalDomainPending: "affiliates.velo.example",
    });
    // A domain another shop has verified may be asked for (it may have changed hands);
    // the other shop keeps it until this one proves it.
    const other = await buildShop();
    await getDb().shop.update({ where: { id: other.id }, data: { portalDomain: "taken.velo.example" } });
    const taken = await admin.postForm("/admin/portals?index&_data=routes%2F%24role.portals._index", {
      portalDomain: "taken.velo.example",
    });
    expect(taken.status).toBe(200);
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: other.id } })).portalDomain).toBe("taken.velo.example");
    const own = await admin.postForm("/admin/portals?index&_data=routes%2F%24role.portals._index", {
      portalDomain: new URL(process.env.SHOPIFY_APP_URL!).hostname,
    });
    expect(own.status).toBe(409);
  });

  it("is refused to staff without the portals permission and to an affiliate session", async () => {
    const staff = await buildUser(shop.id, { role: "staff", email: "staff@editor.example", permissions: ["sales"] });
    const c = new HttpClient(server.url);
    await c.postForm("/staff/login", { email: staff.email, password: TEST_PASSWORD });
    expect((await c.get("/staff/portals")).status).toBe(403);
    expect((await save(c, "landing", "publish", { items: [hero()] })).status).toBe(403);
    const anonymous = new HttpClient(server.url);
    anonymous.setCookie("__affiliate_session", "whatever");
    expect((await anonymous.get("/admin/portals")).status).toBe(302);
    expect((await admin.get("/admin/portals/nope")).status).toBe(404);
  });
});

describe("editing a page", () => {
  it("keeps a draft from affiliates until it is published", async () => {
    expect((await save(admin, "landing", "save", { title: "Velo Partners", items: [hero()] })).status).toBe(200);
    const before = await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text();
    expect(before).not.toContain("Ride with Velo");
    expect(before).toContain("Earn with");
    expect((await save(admin, "landing", "publish", { title: "Velo Partners", items: [hero()] })).status).toBe(200);
    const after = await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text();
    expect(after).toContain("Ride with Velo");
    expect(after).toContain("Velo Partners");
    const editor = await (await admin.get("/admin/portals/landing")).text();
    expect(editor).toContain("Ride with Velo");
  });

  it("opens the merchant's links that leave the portal in a new tab, and keeps portal links in place", async () => {
    const content = {
      topBar: { links: [{ label: "Our store", url: "https://velo.example/" }] },
      items: [hero({ link: { label: "See the bikes", url: "https://velo.example/bikes" } })],
    };
    expect((await save(admin, "landing", "publish", content)).status).toBe(200);
    const html = await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text();
    const anchor = (href: string) => html.match(new RegExp(`<a [^>]*href="${href.replace(/[.]/g, "\\.")}"[^>]*>`))?.[0];
    for (const href of ["https://velo.example/", "https://velo.example/bikes"]) {
      expect(anchor(href), href).toMatch(/target="_blank"/);
      expect(anchor(href), href).toMatch(/rel="noopener noreferrer"/);
    }
    expect(anchor(`/portal/${handle}/login`)).not.toMatch(/target=/);
  });

  it("refuses links and images that fail the URL-shape check, and changes nothing", async () => {
    const res = await save(admin, "landing", "publish", {
      items: [hero({ image: "javascript:alert(1)", link: { label: "x", url: "//evil.example" } })],
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.error.fields)).toEqual(expect.arrayContaining(["items.0.image", "items.0.link.url"]));
    expect(await getDb().portalPage.count()).toBe(0);
    expect((await save(admin, "landing", "publish", "not json at all")).status).toBe(422);
    const broken = await admin.postForm(`/admin/portals/landing?_data=routes%2F%24role.portals.%24id`, {
      intent: "publish",
      version: "0",
      content: "{",
    });
    expect(broken.status).toBe(422);
  });

  it("stores an uploaded image on disk, serves it, and repairs a broken path to it by file name", async () => {
    const res = await upload(admin, "landing", "Hero Shot.PNG", PNG);
    expect(res.status).toBe(200);
    const { uploaded } = await res.json();
    expect(uploaded).toMatch(new RegExp(`^/portal-assets/${shop.id}/[0-9a-f]{8}-hero-shot\\.png$`));
    const served = await fetch(server.url(uploaded));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const fileName = uploaded.split("/").pop();
    // An old folder, and a bare file name: both point at the upload after saving.
    await save(admin, "landing", "publish", {
      items: [hero({ image: `/old/images/${fileName}`, icon: fileName }), hero({ image: "/old/images/missing.png" })],
    });
    const row = await getDb().portalPage.findFirstOrThrow({ where: { shopId: shop.id, kind: "landing" } });
    const items = JSON.parse(row.published!).items;
    expect(items[0].image).toBe(uploaded);
    expect(items[0].icon).toBe(uploaded);
    expect(items[1].image).toBe("");
    expect(await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text()).toContain(`src="${uploaded}"`);
  });

  it("refuses a file that is not the image it claims to be, and an empty upload", async () => {
    expect((await upload(admin, "landing", "evil.png", Buffer.from("<svg onload=alert(1)>"))).status).toBe(400);
    expect((await upload(admin, "landing", "page.html", PNG, "text/html")).status).toBe(400);
    expect((await upload(admin, "landing", "empty.png", Buffer.alloc(0))).status).toBe(400);
    // Decoded before it is stored: a 50000 × 50000 canvas in a few bytes, and a cut-off file.
    const bomb = await upload(admin, "landing", "bomb.png", pngHeaderOnly(50_000, 50_000));
    expect(bomb.status).toBe(400);
    expect(((await bomb.json()) as { error: { message: string } }).error.message).toBe(
      "This image has too many pixels (50000 × 50000). Resize it to at most 16 megapixels and upload it again.",
    );
    expect((await upload(admin, "landing", "cut.png", pngHeaderOnly(300, 300))).status).toBe(400);
    expect(readdirSync(dataDir, { recursive: true }).filter((f) => /-(bomb|cut)\.png$/.test(String(f)))).toEqual([]);
    expect((await fetch(server.url(`/portal-assets/${shop.id}/..%2F..%2Fsecrets.json`))).status).toBe(404);
  });

  it("sets the sign-up form's fields and questions from the sign-up page", async () => {
    await save(admin, "signup", "publish", {
      form: { website: "required", questions: [{ id: "niche", label: "Your niche?", required: false }] },
    });
    const html = await (await new HttpClient(server.url).get(`/portal/${handle}/signup`)).text();
    expect(html).toContain("Your niche?");
    expect(html).toMatch(/name="website"[^>]*aria-required="true"/);
  });

  it("keeps the Join button when the landing page is only a heading (it once replaced the whole page)", async () => {
    const heading = { type: "text", elements: { heading: "Spring rides", text: "" } };
    expect((await save(admin, "landing", "publish", { items: [heading] })).status).toBe(200);
    const html = await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text();
    expect(html).toContain("Spring rides");
    expect(html).toMatch(new RegExp(`<a [^>]*href="/portal/${handle}/signup"[^>]*>(<[^>]+>)*Join now`));
    // The built-in hero (its text in the visitor's language) comes first, and is stored so.
    const row = await getDb().portalPage.findFirstOrThrow({ where: { shopId: shop.id, kind: "landing" } });
    expect(JSON.parse(row.published!).items.map((i: { type: string }) => i.type)).toEqual(["hero", "text"]);
  });

  it("never hides the hero that carries Join; hides other sections", async () => {
    const content = {
      items: [
        { type: "hero", builtIn: true, hidden: true },
        { type: "benefits", builtIn: true, hidden: true },
        { type: "text", elements: { heading: "Shown" } },
      ],
    };
    expect((await save(admin, "landing", "publish", content)).status).toBe(200);
    const html = await (await new HttpClient(server.url).get(`/portal/${handle}/`)).text();
    expect(html).toContain("Join now");
    expect(html).toContain("Shown");
    expect(html).not.toContain("Generous commissions");
  });

  it("numbers each save, keeps each published copy, and refuses a save from an old version (409, nothing changes)", async () => {
    expect((await save(admin, "landing", "save", { items: [hero()] }, 0)).status).toBe(200);
    expect((await save(admin, "landing", "publish", { items: [hero()] }, 1)).status).toBe(200);
    const stale = await save(admin, "landing", "publish", { items: [hero({ elements: { heading: "Late" } })] }, 1);
    expect(stale.status).toBe(409);
    expect((await save(admin, "landing", "save", { items: [] }, 0)).status).toBe(409);
    const row = await getDb().portalPage.findFirstOrThrow({ where: { shopId: shop.id, kind: "landing" } });
    expect(row).toMatchObject({ version: 2, publishedVersion: 2 });
    expect(row.published).not.toContain("Late");
    const versions = await getDb().portalPageVersion.findMany({ where: { pageId: row.id } });
    expect(versions.map((v) => v.version)).toEqual([2]);
    expect((await save(admin, "landing", "publish", { items: [hero()] }, 2)).status).toBe(200);
    expect(await getDb().portalPageVersion.count({ where: { pageId: row.id } })).toBe(2);
  });
});

describe("the merchant's own sign-up fields", () => {
  const form = {
    termsUrl: "https://velo.example/terms",
    questions: [
      {
        id: "channel",
        label: "Where do you post?",
        labels: { de: "Wo veröffentlichst du?" },
        type: "select",
        options: ["Blog", "YouTube"],
        required: true,
      },
      { id: "audience", label: "Audience size", type: "text" },
      { id: "adult", label: "I am over 18", type: "checkbox", required: true },
    ],
  };
  const applicant = {
    firstName: "Ana",
    lastName: "Silva",
    email: "ana@aff.example",
    password: "a long enough password",
  };
  const signup = (body: Record<string, string>) =>
    new HttpClient(server.url).postForm(`/portal/${handle}/signup?_data=routes%2Fportal.%24handle.signup`, body);

  it("refuses a sign-up without a required answer or the terms, keeps the answers, and shows them to the merchant and in the CSV", async () => {
    expect((await save(admin, "signup", "publish", { form })).status).toBe(200);
    const html = await (await new HttpClient(server.url).get(`/portal/${handle}/signup`)).text();
    expect(html).toContain("Where do you post?");
    expect(html).toContain('href="https://velo.example/terms"');
    // The label in the visitor's language where the merchant gave one, theirs otherwise.
    const german = await (await new HttpClient(server.url).get(`/portal/${handle}/signup?lang=de`)).text();
    expect(german).toContain("Wo veröffentlichst du?");
    expect(german).toContain("Audience size");

    const refused = await signup({ ...applicant, q_channel: "Radio", terms: "on" });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: { fields: Record<string, string> } };
    expect(Object.keys(body.error.fields).sort()).toEqual(["q_adult", "q_channel"]);
    expect((await signup({ ...applicant, q_channel: "Blog", q_adult: "on" })).status).toBe(422);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(0);

    expect((await signup({ ...applicant, q_channel: "Blog", q_adult: "on", terms: "on" })).status).toBe(200);
    const affiliate = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(JSON.parse(affiliate.signupAnswers).answers).toEqual({ channel: "Blog", adult: true });
    expect(affiliate.termsAcceptedAt).not.toBeNull();

    const page = await (await admin.get(`/admin/affiliates/${affiliate.id}`)).text();
    expect(page).toContain("Where do you post?");
    expect(page).toContain("Blog");
    const csv = await (await admin.get("/admin/affiliates/export")).text();
    const [header, line] = csv.trim().split(/\r?\n/);
    expect(header).toContain("signup: Where do you post?,signup: Audience size,signup: I am over 18");
    expect(line).toMatch(/,Blog,,yes$/);
  });

  it("asks no terms without a terms link, and refuses field definitions that make no sense", async () => {
    expect((await save(admin, "signup", "publish", { form: { questions: [] } })).status).toBe(200);
    expect((await signup({ ...applicant })).status).toBe(200);
    const bad = await save(admin, "signup", "publish", {
      form: { questions: [{ id: "x", label: "Pick", type: "select", options: ["only one"] }] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(((await bad.json()) as { error: { fields: object } }).error.fields)).toEqual([
      "form.questions.0.options",
    ]);
  });
});
