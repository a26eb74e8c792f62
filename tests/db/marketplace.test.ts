import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { pngHeaderOnly } from "../support/png";

// Settings > Marketplace and the public marketplace over real HTTP: the
// merchant's offer is checked and saved, only listed shops with an active
// campaign appear, search, categories and pages run on the server, and an
// application from the marketplace waits for review.
applyTestEnv({ TRUST_PROXY: "1" });
useTestDatabase();
const server = useTestServer();

const SETTINGS = "routes/$role.settings.marketplace";
const PUBLIC = "routes/marketplace";

async function adminOf(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

type Offer = {
  listed: boolean;
  title: string;
  description: string;
  commissionSummary: string;
  category: string;
  logoUrl: string;
};
const offer = (over: Record<string, unknown> = {}): Offer => ({
  listed: true,
  title: "Trail running gear",
  description: "Shoes and packs for long runs.",
  commissionSummary: "12% on every order",
  category: "health",
  logoUrl: "",
  ...over,
});

const saveOffer = (client: HttpClient, body: unknown) =>
  client.postJson(`/admin/settings/marketplace?_data=${encodeURIComponent(SETTINGS)}`, body);
const market = async (query = "") =>
  (
    await new HttpClient(server.url).get(`/marketplace?${query}${query ? "&" : ""}_data=${encodeURIComponent(PUBLIC)}`)
  ).json();

async function listedShop(name: string, over: Record<string, unknown> = {}) {
  const shop = await buildShop({ domain: `${name}.myshopify.com` });
  await buildCampaign(shop.id, { status: "active" });
  await getDb().marketplaceListing.create({ data: { shopId: shop.id, ...offer(over) } });
  return shop;
}

describe("settings > marketplace", () => {
  it("saves the offer, reads it back, and refuses a bad one with field errors, changing nothing", async () => {
    const shop = await buildShop();
    await buildCampaign(shop.id, { status: "active" });
    const admin = await adminOf(shop.id);

    const empty = await (await admin.get(`/admin/settings/marketplace?_data=${encodeURIComponent(SETTINGS)}`)).json();
    expect(empty.listing.listed).toBe(false);
    expect(empty.marketplaceUrl).toMatch(/\/marketplace$/);

    expect((await saveOffer(admin, offer())).status).toBe(200);
    const saved = await (await admin.get(`/admin/settings/marketplace?_data=${encodeURIComponent(SETTINGS)}`)).json();
    expect(saved.listing).toMatchObject({ listed: true, title: "Trail running gear", category: "health" });

    const bad = await saveOffer(admin, offer({ logoUrl: "http://insecure.example/logo.png", category: "x" }));
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).error.fields).sort()).toEqual(["category", "logoUrl"]);
    // A listed offer needs its name, description and commission summary; an unlisted one may be a draft.
    const blank = await saveOffer(admin, offer({ title: "", commissionSummary: "" }));
    expect(Object.keys((await blank.json()).error.fields).sort()).toEqual(["commissionSummary", "title"]);
    expect((await saveOffer(admin, offer({ listed: false, title: "", commissionSummary: "" }))).status).toBe(200);
    await saveOffer(admin, offer());
    const row = await getDb().marketplaceListing.findUniqueOrThrow({ where: { shopId: shop.id } });
    expect(row.title).toBe("Trail running gear");
  });
});

describe("settings > marketplace logo", () => {
  const PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
    "base64",
  );
  const upload = async (client: HttpClient, bytes: Buffer, name = "logo.png") => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("image", new Blob([new Uint8Array(bytes)]), name);
    return client.request(`/admin/settings/marketplace?_data=${encodeURIComponent(SETTINGS)}`, {
      method: "POST",
      body: form,
    });
  };

  it("uploads the logo through the storage, saves it with the offer and shows it on the public page", async () => {
    const shop = await buildShop({ domain: "logo-gear.myshopify.com" });
    await buildCampaign(shop.id, { status: "active" });
    const admin = await adminOf(shop.id);
    const other = await adminOf((await buildShop()).id);

    const notImage = await upload(admin, Buffer.from("<svg/>"), "logo.svg");
    expect(notImage.status).toBe(400);
    expect((await upload(admin, pngHeaderOnly(50_000, 50_000))).status).toBe(400);
    const ours = ((await (await upload(admin, PNG)).json()) as { uploaded: string }).uploaded;
    expect(ours).toMatch(new RegExp(`^/portal-assets/${shop.id}/[0-9a-f]{8}-logo\\.png$`));
    const theirs = ((await (await upload(other, PNG)).json()) as { uploaded: string }).uploaded;

    const stolen = await saveOffer(admin, { ...offer({ logoUrl: theirs }), intent: "save" });
    expect(stolen.status).toBe(422);
    expect(Object.keys((await stolen.json()).error.fields)).toEqual(["logoUrl"]);
    expect(await getDb().marketplaceListing.count({ where: { shopId: shop.id } })).toBe(0);

    expect((await saveOffer(admin, { ...offer({ logoUrl: ours }), intent: "save" })).status).toBe(200);
    const { cards } = await market("q=Trail");
    expect(cards).toEqual([expect.objectContaining({ logoUrl: ours })]);
    // The public page can load it.
    const image = await new HttpClient(server.url).get(ours);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
  });
});

describe("public marketplace", () => {
  it("lists only opted-in shops with an active campaign, with search, categories and pages", async () => {
    await listedShop("alpine", { title: "Alpine skis", category: "other" });
    await listedShop("bloom", { title: "Bloom cosmetics", category: "beauty", description: "Vegan skin care" });
    await listedShop("hidden", { listed: false, title: "Hidden offer" });
    const noCampaign = await buildShop({ domain: "closed.myshopify.com" });
    await getDb().marketplaceListing.create({ data: { shopId: noCampaign.id, ...offer({ title: "Closed" }) } });

    const all = await market();
    expect(all.cards.map((c: { title: string }) => c.title).sort()).toEqual(["Alpine skis", "Bloom cosmetics"]);
    expect((await market("q=vegan")).cards.map((c: { handle: string }) => c.handle)).toEqual(["bloom"]);
    expect((await market("category=other")).cards.map((c: { handle: string }) => c.handle)).toEqual(["alpine"]);
    // A bad category or page falls back instead of failing.
    expect((await market("category=nonsense&page=-3")).cards).toHaveLength(2);

    for (let i = 0; i < 21; i++) await listedShop(`many-${i}`, { title: `Bulk ${i}`, category: "home" });
    const first = await market("category=home");
    expect(first.cards).toHaveLength(20);
    expect(first.hasNext).toBe(true);
    const second = await market("category=home&page=2");
    expect(second.cards).toHaveLength(1);
    expect(second.hasNext).toBe(false);
    expect(second.hasPrevious).toBe(true);
  });

  it("an application from the marketplace lands in the shop's sign-up and waits for review", async () => {
    const shop = await listedShop("runners");
    await getDb().campaign.updateMany({ where: { shopId: shop.id }, data: { autoApproveAffiliates: true } });
    const page = await (await new HttpClient(server.url).get("/portal/runners/signup?via=marketplace")).text();
    expect(page).toContain('name="via" value="marketplace"');

    const res = await new HttpClient(server.url).postForm("/portal/runners/signup", {
      firstName: "Nora",
      lastName: "Quinn",
      email: "nora@aff.example",
      password: "affiliate password 1",
      paypalEmail: "",
      website: "",
      terms: "on",
      via: "marketplace",
    });
    expect(res.status).toBeLessThan(400);
    const aff = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "nora@aff.example" } });
    expect(aff.status).toBe("pending");

    // The same shop's own sign-up still approves by itself.
    await new HttpClient(server.url).postForm("/portal/runners/signup", {
      firstName: "Ada",
      lastName: "Lane",
      email: "ada@aff.example",
      password: "affiliate password 1",
      paypalEmail: "",
      website: "",
      terms: "on",
    });
    const direct = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "ada@aff.example" } });
    expect(direct.status).toBe("approved");
  });
});
