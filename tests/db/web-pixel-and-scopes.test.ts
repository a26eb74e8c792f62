import { APP_URL } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { ensureRecurringJobs } from "~/worker/recurring-jobs.server";
import { drainJobs } from "~/worker/job-registry.server";
import { findOrInstallShop } from "~/models/shop/install-shop.server";
import { queueWebPixelSyncs, syncWebPixel, WEB_PIXEL_JOB } from "~/models/shop/web-pixel.server";
import { SCOPES } from "~/shopify.server";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";

// The shop's web pixel (extensions/affiliate-pixel) and its granted scopes,
// against the store simulator, which checks every document against Shopify's
// Admin schema, enforces the scopes each field needs and checks the pixel's
// settings against the extension's TOML as Shopify does.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const SHOP = "pixel-shop.myshopify.com";
const NEW_URL = "https://affiliates.new-host.example";

async function connect(domain = SHOP) {
  sim.store.install(domain);
  await getDb().session.create({
    data: {
      id: `offline_${domain}`,
      shop: domain,
      state: "",
      accessToken: sim.accessToken(domain),
      scope: SCOPES.join(","),
    },
  });
}

const pixelOnShopify = (domain = SHOP) => sim.store.shop(domain).webPixel;
const pixelRequests = () => sim.graphqlRequests().filter((r) => /WebPixel/.test(r.outcome?.operation ?? ""));
const settingsOf = (pixel: { settings: string } | null) => (pixel ? JSON.parse(pixel.settings) : null);

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

describe("the web pixel", () => {
  it("is created on install with the app's URL in its settings, in a job", async () => {
    await connect();
    const shop = await findOrInstallShop(SHOP);
    const job = await getDb().job.findFirstOrThrow({ where: { type: WEB_PIXEL_JOB } });
    expect(JSON.parse(job.payload)).toEqual({ shopId: shop.id });
    expect(pixelOnShopify()).toBeNull(); // nothing sent before the job runs

    await drainJobs();
    expect(settingsOf(pixelOnShopify())).toEqual({ app_url: APP_URL });
    const requests = pixelRequests();
    expect(requests.map((r) => r.outcome!.operation)).toEqual(["mutation WebPixelCreate"]);
    expect(requests[0]!.outcome).toMatchObject({ validated: true, errors: [] });
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row).toMatchObject({ webPixelId: `gid://shopify/WebPixel/${pixelOnShopify()!.id}`, webPixelUrl: APP_URL });
    expect((await getDb().job.findFirstOrThrow({ where: { type: WEB_PIXEL_JOB } })).status).toBe("done");
  });

  it("is updated when a worker starts with another app URL, and left alone when the URL is the same", async () => {
    await connect();
    const shop = await findOrInstallShop(SHOP);
    await drainJobs();
    const id = pixelOnShopify()!.id;

    // Same URL: nothing queued at a worker's start.
    expect((await ensureRecurringJobs()).webPixels).toBe(0);
    // A deployment moved: the sweep queues the shop once, however often it runs.
    expect(await queueWebPixelSyncs(getDb(), NEW_URL)).toBe(1);
    expect(await queueWebPixelSyncs(getDb(), NEW_URL)).toBe(0);
    const job = await getDb().job.findFirstOrThrow({ where: { type: WEB_PIXEL_JOB, status: "queued" } });
    expect(await syncWebPixel(JSON.parse(job.payload), NEW_URL)).toBe("updated");

    expect(pixelOnShopify()!.id).toBe(id);
    expect(settingsOf(pixelOnShopify())).toEqual({ app_url: NEW_URL });
    expect(pixelRequests().map((r) => r.outcome!.operation)).toEqual([
      "mutation WebPixelCreate",
      "mutation WebPixelUpdate",
    ]);
    expect(pixelRequests().every((r) => r.outcome!.validated && r.outcome!.errors.length === 0)).toBe(true);
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({ webPixelUrl: NEW_URL });
    expect(await syncWebPixel({ shopId: shop.id }, NEW_URL)).toBe("unchanged");
    expect(pixelRequests()).toHaveLength(2);
  });

  it("is created again on a re-install (Shopify removed it with the uninstall)", async () => {
    await connect();
    await findOrInstallShop(SHOP);
    await drainJobs();
    await sim.store.uninstall(SHOP);
    await sim.store.flush();
    await drainJobs();
    expect(pixelOnShopify()).toBeNull();

    sim.store.install(SHOP);
    await getDb().session.upsert({
      where: { id: `offline_${SHOP}` },
      create: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        accessToken: sim.accessToken(SHOP),
        scope: SCOPES.join(","),
      },
      update: {},
    });
    await findOrInstallShop(SHOP);
    await drainJobs();
    expect(settingsOf(pixelOnShopify())).toEqual({ app_url: APP_URL });
    const row = await getDb().shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(row.webPixelId).toBe(`gid://shopify/WebPixel/${pixelOnShopify()!.id}`);
  });

  it("takes over a pixel the shop has already (create answers TAKEN) and points it at the app", async () => {
    await connect();
    sim.store.shop(SHOP).webPixel = { id: "555", settings: JSON.stringify({ app_url: "https://old.example" }) };
    const shop = await findOrInstallShop(SHOP);
    await drainJobs();
    expect(pixelOnShopify()).toEqual({ id: "555", settings: JSON.stringify({ app_url: APP_URL }) });
    expect(pixelRequests().map((r) => r.outcome!.operation)).toEqual([
      "mutation WebPixelCreate",
      "query AppWebPixel",
      "mutation WebPixelUpdate",
    ]);
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({
      webPixelId: "gid://shopify/WebPixel/555",
    });
  });

  it("fails its job with Shopify's reason when the shop did not grant the pixel scopes", async () => {
    sim.store.shop(SHOP).scopes = SCOPES.filter((s) => s !== "write_pixels");
    await connect();
    await findOrInstallShop(SHOP);
    await drainJobs();
    const job = await getDb().job.findFirstOrThrow({ where: { type: WEB_PIXEL_JOB } });
    expect(job.lastError).toMatch(/write_pixels/);
    expect(pixelOnShopify()).toBeNull();
    expect(await getDb().shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({ webPixelId: null });
  });

  it("is created as soon as the merchant grants the pixel's scopes (app/scopes_update)", async () => {
    const withoutPixels = SCOPES.filter((s) => s !== "write_pixels");
    sim.store.shop(SHOP).scopes = withoutPixels;
    await connect();
    await findOrInstallShop(SHOP);
    await drainJobs();
    expect(pixelOnShopify()).toBeNull();

    expect((await sim.store.changeScopes(SHOP, SCOPES)).status).toBe(200);
    await drainJobs();
    expect(settingsOf(pixelOnShopify())).toEqual({ app_url: APP_URL });
    expect(await getDb().shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({ webPixelUrl: APP_URL });
  });

  it("is not attempted for a shop without an offline session (standalone)", async () => {
    const shop = await findOrInstallShop("standalone-pixel.myshopify.com");
    expect(await syncWebPixel({ shopId: shop.id }, APP_URL)).toBe("no access");
    expect(pixelRequests()).toHaveLength(0);
  });
});

describe("app/scopes_update", () => {
  const scopeOf = async () => (await getDb().session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } })).scope;

  it("stores the scopes Shopify says the shop granted on its offline session, whatever a replayed body claims", async () => {
    await connect();
    await findOrInstallShop(SHOP);
    await drainJobs();

    const granted = [...SCOPES, "read_inventory"];
    const delivery = await sim.store.changeScopes(SHOP, granted);
    expect(delivery.status).toBe(200);
    await drainJobs();
    expect((await scopeOf())!.split(",").sort()).toEqual([...granted].sort());
    expect(
      sim.graphqlRequests().filter((r) => r.outcome?.operation === "query GrantedScopes")[0]!.outcome,
    ).toMatchObject({ validated: true, errors: [] });

    // The same signed body again (a replay under a new webhook id) and an
    // older one claiming fewer scopes: the stored scope stays Shopify's.
    const older = JSON.stringify({
      id: 1,
      shop_id: "gid://shopify/Shop/1",
      previous: granted,
      current: ["read_products"],
      updated_at: "2020-01-01T00:00:00.000Z",
    });
    for (const body of [delivery.body, older]) {
      const res = await fetch(server.url("/webhooks"), {
        method: "POST",
        body,
        headers: webhookHeaders("app/scopes_update", SHOP, body),
      });
      expect(res.status).toBe(200);
    }
    await drainJobs();
    expect((await scopeOf())!.split(",").sort()).toEqual([...granted].sort());
  });

  it("refuses a body with a bad signature and one that is not a scopes update", async () => {
    await connect();
    await findOrInstallShop(SHOP);
    const body = JSON.stringify({ current: ["read_products"] });
    const forged = await fetch(server.url("/webhooks"), {
      method: "POST",
      body,
      headers: { ...webhookHeaders("app/scopes_update", SHOP, body), "x-shopify-hmac-sha256": "AAAA" },
    });
    expect(forged.status).toBe(401);
    const wrong = JSON.stringify({ current: "read_products" });
    await fetch(server.url("/webhooks"), {
      method: "POST",
      body: wrong,
      headers: webhookHeaders("app/scopes_update", SHOP, wrong),
    });
    await drainJobs();
    expect(await getDb().job.count({ where: { type: "scopes.refresh" } })).toBe(0);
    expect(await scopeOf()).toBe(SCOPES.join(","));
  });
});
