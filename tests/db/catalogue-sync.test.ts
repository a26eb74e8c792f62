import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { CATALOGUE_SYNC_JOB, type CatalogueSyncPayload } from "~/models/portal/catalogue-sync.server";
import { findOrInstallShop } from "~/models/shop/install-shop.server";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The portal's catalogue: read from the Admin API at install, page by page
// within Shopify's cost limits, then kept current by products/* webhooks,
// all against the store simulator.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const SHOP = "catalogue-shop.myshopify.com";
const pageRequests = () => sim.graphqlRequests().filter((r) => r.outcome?.operation === "query CataloguePage");

/** The store sells the six demo products plus `extra` more. */
async function stock(extra: number) {
  const shop = sim.store.shop(SHOP);
  for (let i = 0; i < extra; i++) {
    shop.products.push({
      ...structuredClone(shop.products[0]!),
      id: String(8_000_000_000 + i),
      title: `Trail Mix ${String(i).padStart(3, "0")}`,
      handle: `trail-mix-${i}`,
    });
  }
}

async function connect() {
  await getDb().session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: "read_products" },
  });
}

async function catalogue() {
  return getDb().product.findMany({ where: { shop: { domain: SHOP } }, orderBy: { gid: "asc" } });
}

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

describe("catalogue sync at install", () => {
  it("reads every product page by page when the shop installs the app", async () => {
    await stock(244); // 250 products: pages of 100, 100 and 50
    await connect();
    const shop = await findOrInstallShop(SHOP);
    const job = await getDb().job.findFirstOrThrow({ where: { type: CATALOGUE_SYNC_JOB } });
    expect(JSON.parse(job.payload)).toMatchObject({ shopDomain: SHOP, after: null });

    await drainJobs();
    const products = await catalogue();
    expect(products).toHaveLength(250);
    expect(products.every((p) => p.shopId === shop.id && p.status === "active")).toBe(true);
    expect(products.find((p) => p.gid === "gid://shopify/Product/9100000000")).toMatchObject({
      title: "Merino Beanie",
      handle: "merino-beanie",
      // The lowest variant's price, in cents (the picker and the affiliates' products page show it).
      price: 3_900,
    });
    // The collections come after the products, for the picker of collection rules.
    expect(
      (await getDb().collection.findMany({ where: { shopId: shop.id }, orderBy: { title: "asc" } })).map(
        (c) => c.title,
      ),
    ).toEqual(["Accessories", "Footwear", "Outerwear", "Summer"]);
    const pages = pageRequests();
    expect(pages).toHaveLength(3);
    // Each page was checked against Shopify's schema and cost what Shopify would charge.
    for (const page of pages) expect(page.outcome).toMatchObject({ validated: true, errors: [], throttled: false });
    expect(pages[0]!.outcome!.cost).toEqual({ requested: 602, actual: 302 });
    expect(pages.map((p) => (p.body.variables as { after: string | null }).after === null)).toEqual([
      true,
      false,
      false,
    ]);
    expect((await getDb().job.findFirstOrThrow({ where: { type: CATALOGUE_SYNC_JOB } })).status).toBe("done");
  });

  it("paces itself when the cost bucket runs low, and hands a long wait over to a later job", async () => {
    await stock(244);
    await connect();
    // A small bucket: the second page (602 points requested) does not fit after the first.
    const bucket = sim.store.bucket(SHOP);
    bucket.maximum = 700;
    bucket.set(700);
    await findOrInstallShop(SHOP);
    await drainJobs();
    expect(await getDb().product.count()).toBe(250);
    // The sync waited for the bucket rather than being throttled.
    expect(pageRequests().map((r) => r.outcome!.throttled)).toEqual([false, false, false]);

    // Now a bucket that refills slowly: a wait of 40 s is not spent holding a worker.
    sim.reset();
    await stock(244);
    const slow = sim.store.bucket(SHOP);
    slow.restoreRate = 10;
    slow.set(0);
    await getDb().product.deleteMany();
    await getDb().shop.update({ where: { domain: SHOP }, data: { uninstalledAt: new Date() } });
    await findOrInstallShop(SHOP); // a re-install reads the catalogue again
    const started = Date.now();
    await drainJobs();
    const waiting = await getDb().job.findMany({ where: { type: CATALOGUE_SYNC_JOB, status: "queued" } });
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.runAt.getTime() - started).toBeGreaterThan(30_000);
    expect((JSON.parse(waiting[0]!.payload) as CatalogueSyncPayload).pages).toBe(0);
    expect(pageRequests().at(-1)!.outcome!.throttled).toBe(true);

    // Later, with the bucket full again, the next job carries on and finishes.
    slow.restoreRate = 100;
    slow.set(2000);
    await getDb().job.updateMany({ where: { id: waiting[0]!.id }, data: { runAt: new Date() } });
    await drainJobs();
    expect(await getDb().product.count()).toBe(250);
  });

  it("removes products Shopify no longer has", async () => {
    await connect();
    const shop = await findOrInstallShop(SHOP);
    await getDb().product.create({
      data: {
        shopId: shop.id,
        gid: "gid://shopify/Product/1",
        title: "Deleted long ago",
        handle: "gone",
        updatedAt: new Date(0),
      },
    });
    await drainJobs();
    const products = await catalogue();
    expect(products.map((p) => p.handle)).not.toContain("gone");
    expect(products).toHaveLength(6);
  });

  it("syncs nothing for a shop without Admin API access (standalone), and finishes", async () => {
    await findOrInstallShop(SHOP);
    await drainJobs();
    expect(await catalogue()).toEqual([]);
    expect(pageRequests()).toHaveLength(0);
    expect((await getDb().job.findFirstOrThrow({ where: { type: CATALOGUE_SYNC_JOB } })).status).toBe("done");
  });
});

describe("catalogue changes in the store", () => {
  it("reaches the app as signed products/create, products/update and products/delete webhooks", async () => {
    await connect();
    await findOrInstallShop(SHOP);
    await drainJobs();
    const created = await sim.store.createProduct(SHOP, {
      title: "Camp Stove",
      price: "59.00",
      collections: ["summer"],
    });
    expect(created.deliveries.map((d) => [d.topic, d.status])).toEqual([["products/create", 200]]);
    await drainJobs();
    const gid = `gid://shopify/Product/${created.product.id}`;
    expect((await catalogue()).find((p) => p.gid === gid)).toMatchObject({ title: "Camp Stove", handle: "camp-stove" });

    const updated = await sim.store.updateProduct(SHOP, "camp-stove", { title: "Camp Stove XL", status: "draft" });
    expect(updated.deliveries.map((d) => [d.topic, d.status])).toEqual([["products/update", 200]]);
    await drainJobs();
    expect((await catalogue()).find((p) => p.gid === gid)).toMatchObject({ title: "Camp Stove XL", status: "draft" });

    const deleted = await sim.store.deleteProduct(SHOP, "camp-stove");
    expect(deleted.deliveries.map((d) => [d.topic, d.status])).toEqual([["products/delete", 200]]);
    await drainJobs();
    expect((await catalogue()).find((p) => p.gid === gid)).toBeUndefined();
  });
});
