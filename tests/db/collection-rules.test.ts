import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { sampleOrder } from "~/models/shopify/sample-payloads";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { useStoreSimulator } from "../support/store-simulator";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";
import { english } from "../support/explanations";

// Per-collection commission rules on live orders: the webhook does not say
// which collections a product is in, so the worker asks the Admin API (the
// store simulator, which checks the query against Shopify's schema) with the
// shop's offline session, and keeps the answer for a day.
applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const SHOP = "collections-shop.myshopify.com";
// The simulator's catalogue: the beanie is in Accessories only, the shoes in
// Footwear and Summer.
const HATS = "gid://shopify/Collection/9200000001"; // accessories
const SALE = "gid://shopify/Collection/9200000000"; // summer
const BEANIE = "9100000000";
const SHOES = "9100000001";
let shopId: string;

beforeEach(async () => {
  sim.reset();
  const db = getDb();
  const shop = await db.shop.create({
    data: {
      domain: SHOP,
      name: "Collections",
      url: `https://${SHOP}`,
      adminEmail: "o@x.example",
      pricingPlan: "growth",
    },
  });
  shopId = shop.id;
  // 10 % in general; hats 25 %; the sale collection earns nothing.
  const campaign = await db.campaign.create({
    data: {
      shopId,
      name: "Main",
      status: "active",
      commissionType: "percent",
      commissionValue: 1000,
      rules: {
        create: [
          { targetType: "collection", targetGid: HATS, kind: "rate", commissionType: "percent", value: 2500 },
          { targetType: "collection", targetGid: SALE, kind: "exclude" },
        ],
      },
    },
  });
  const affiliate = await db.affiliate.create({
    data: {
      shopId,
      campaignId: campaign.id,
      email: "ria@aff.example",
      firstName: "Ria",
      lastName: "Test",
      status: "approved",
      referralCode: "RIA",
    },
  });
  await db.coupon.create({ data: { shopId, affiliateId: affiliate.id, code: "RIA10" } });
});

const order = () =>
  sampleOrder({
    couponCode: "RIA10",
    lines: [
      { title: "Merino beanie", price: "40.00", quantity: 1, productId: BEANIE },
      { title: "Trail runner shoes", price: "100.00", quantity: 1, productId: SHOES },
    ],
  }).text;

async function deliver(body: string) {
  const res = await new HttpClient(server.url).request("/webhooks", {
    method: "POST",
    body,
    headers: webhookHeaders("orders/create", SHOP, body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  await drainJobs();
}

const collectionQueries = () =>
  sim.graphqlRequests().filter((r) => /nodes\s*\(\s*ids:/.test(String(r.body.query ?? "")));

describe("per-collection rules on live orders", () => {
  it("reads the products' collections from the Admin API and applies the collection rates and exclusions", async () => {
    await getDb().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "x", accessToken: sim.accessToken(SHOP) },
    });
    await deliver(order());
    const [commission] = await getDb().commission.findMany({ where: { shopId } });
    // 10 % coupon: beanie 36.00 at 25 % = 9.00; shoes (90.00) excluded.
    expect(commission).toMatchObject({ level: 1, amount: 900, status: "pending" });
    expect(english(commission!.explanation)).toContain("excluded");
    expect(collectionQueries()).toHaveLength(1);
    expect(collectionQueries()[0]!.body.variables).toEqual({
      ids: [`gid://shopify/Product/${BEANIE}`, `gid://shopify/Product/${SHOES}`],
    });
    expect(collectionQueries()[0]!.headers["x-shopify-access-token"]).toBe(sim.accessToken(SHOP));
    // The store validated the query against Shopify's schema and answered it.
    expect(collectionQueries()[0]!.outcome).toMatchObject({ validated: true, errors: [] });

    // A second order of the same products uses what was kept: no new query.
    await deliver(order());
    expect(await getDb().commission.count({ where: { shopId, amount: 900 } })).toBe(2);
    expect(collectionQueries()).toHaveLength(1);
    const kept = await getDb().productCollections.findMany({ where: { shopId }, orderBy: { productGid: "asc" } });
    expect(kept.map((k) => [k.productGid, JSON.parse(k.collectionGids)])).toEqual([
      [`gid://shopify/Product/${BEANIE}`, [HATS]],
      [`gid://shopify/Product/${SHOES}`, [SALE, "gid://shopify/Collection/9200000002"]],
    ]);
  });

  it("waits for Shopify's cost bucket when it answers THROTTLED, then reads the collections", async () => {
    await getDb().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "x", accessToken: sim.accessToken(SHOP) },
    });
    sim.store.throttleNext(SHOP, 1);
    const started = Date.now();
    await deliver(order());
    const [commission] = await getDb().commission.findMany({ where: { shopId } });
    expect(commission).toMatchObject({ level: 1, amount: 900 });
    expect(collectionQueries().map((r) => r.outcome?.throttled)).toEqual([true, false]);
    // The client waited for the bucket (at least a second) before asking again.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("tries again later when the Admin API fails, rather than paying without the rules", async () => {
    await getDb().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "x", accessToken: "a-revoked-token" },
    });
    await deliver(order());
    expect(await getDb().order.count({ where: { shopId } })).toBe(0);
    const job = await getDb().job.findFirstOrThrow({ where: { type: "webhook" } });
    expect(job).toMatchObject({ status: "queued" });
    expect(job.lastError).toBeTruthy();
  });

  it("says so in the explanation when a standalone shop's collections cannot be read", async () => {
    await deliver(order()); // no offline session: no Admin API
    const [commission] = await getDb().commission.findMany({ where: { shopId } });
    // General 10 % on 126.00 (both lines), since no collection is known.
    expect(commission).toMatchObject({ level: 1, amount: 1260 });
    expect(english(commission!.explanation)).toBe(
      "10% (campaign rate) on $126.00; collection rules not applied (the shop's product collections could not be read)",
    );
    expect(collectionQueries()).toHaveLength(0);
  });
});
