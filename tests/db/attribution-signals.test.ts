import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { prismaBulk } from "~/db/bulk-sql.server";
import { dialectOf } from "~/db/dialect";
import { planOrders, writeOrders } from "~/models/orders/record-order.server";
import type { OrderPayload } from "~/models/shopify/order-payload";
import { getAccountSale } from "~/models/affiliate-account/account-data.server";
import { getSaleDetail } from "~/models/sales/sale-detail.server";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";

// Every signal of an order set against the credit (ADR 056): the Web Pixel's
// checkout_completed report may arrive before or after orders/create, both
// over real HTTP; a late report updates the order's signal record and never
// its credit, commissions or events.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const SHOP = "signals-shop.myshopify.com";
const ORDER_GID = "gid://shopify/Order/820982911946154508";
let ids: { shop: string; anna: string; ben: string };

beforeEach(async () => {
  const db = getDb();
  const shop = await db.shop.create({
    data: { domain: SHOP, name: "Signals shop", url: `https://${SHOP}`, adminEmail: "o@x.example" },
  });
  const campaign = await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Main",
      status: "active",
      commissionType: "percent",
      commissionValue: 1000,
      cookieDays: 30,
    },
  });
  const mk = (code: string) =>
    db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: `${code.toLowerCase()}@aff.example`,
        firstName: code === "ANNA" ? "Anna" : "Ben",
        lastName: "Test",
        status: "approved",
        referralCode: code,
      },
    });
  const anna = await mk("ANNA");
  const ben = await mk("BEN");
  await db.coupon.create({ data: { shopId: shop.id, affiliateId: anna.id, code: "ANNA10" } });
  ids = { shop: shop.id, anna: anna.id, ben: ben.id };
});

async function deliverOrder(edit: (o: Record<string, any>) => void = () => {}) {
  const body = fixtureWith("orders_create.json", (o) => {
    o.cancelled_at = null;
    o.order_status_url = orderStatusUrl(SHOP);
    o.checkout_token = "tok-signals-1";
    o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
    edit(o);
  });
  const res = await new HttpClient(server.url).request("/webhooks", {
    method: "POST",
    body,
    headers: webhookHeaders("orders/create", SHOP, body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  await drainJobs();
}

const pixel = (ref: string, extra: Record<string, unknown> = {}) =>
  fetch(server.url("/api/pixel/checkout-completed"), {
    method: "POST",
    headers: { "content-type": "text/plain", origin: "https://checkout.example" },
    body: JSON.stringify({ shop: SHOP, checkout_token: "tok-signals-1", ref, ...extra }),
  });

const order = () => getDb().order.findFirstOrThrow({ where: { shopId: ids.shop, shopifyGid: ORDER_GID } });
const signalsOf = async () => JSON.parse((await order()).attributionSignals) as unknown[];
const moneyAndEvents = async () => ({
  commissions: await getDb().commission.findMany({
    where: { shopId: ids.shop },
    select: { id: true, affiliateId: true, amount: true, status: true },
    orderBy: { id: "asc" },
  }),
  events: await getDb().domainEvent.count({ where: { shopId: ids.shop } }),
});

const none = (s: string) => ({ s, v: "none" });
const agrees = (s: string) => ({ s, v: "agrees" });

describe("signals of an order", () => {
  it("pixel before the order: the order is recorded with the pixel agreeing", async () => {
    expect((await pixel("anna")).status).toBe(204);
    await deliverOrder((o) => {
      o.note_attributes = [{ name: "_affiliate_ref", value: "ANNA" }];
    });
    const row = await order();
    expect(row).toMatchObject({ affiliateId: ids.anna, attributionSource: "coupon", checkoutToken: "tok-signals-1" });
    expect(await signalsOf()).toEqual([
      none("click"),
      agrees("cart"),
      agrees("pixel"),
      agrees("coupon"),
      none("customer"),
    ]);
    // The pixel is another signal: the order is not code-only for leak watch.
    expect(row.codeOnly).toBeNull();
  });

  it("pixel after the order: the signal record changes, the credit, money and events do not", async () => {
    await deliverOrder();
    const before = await order();
    expect(before).toMatchObject({ affiliateId: ids.anna, codeOnly: true });
    expect(await signalsOf()).toEqual([none("click"), none("cart"), none("pixel"), agrees("coupon"), none("customer")]);
    const money = await moneyAndEvents();

    expect((await pixel("ANNA")).status).toBe(204);
    const after = await order();
    expect(await signalsOf()).toEqual([
      none("click"),
      none("cart"),
      agrees("pixel"),
      agrees("coupon"),
      none("customer"),
    ]);
    expect(after).toMatchObject({
      affiliateId: ids.anna,
      attributionSource: "coupon",
      attributionReasonKey: before.attributionReasonKey,
      attributionReasonValues: before.attributionReasonValues,
      status: before.status,
      // A late pixel is a signal too: leak watch no longer counts the order as code-only.
      codeOnly: null,
    });
    expect(await moneyAndEvents()).toEqual(money);
  });

  it("a disagreeing pixel names the other affiliate to the merchant only, and the credit stays", async () => {
    await deliverOrder();
    const money = await moneyAndEvents();
    expect((await pixel("BEN")).status).toBe(204);
    expect(await signalsOf()).toEqual([
      none("click"),
      none("cart"),
      { s: "pixel", v: "differs", who: "Ben Test (BEN)" },
      agrees("coupon"),
      none("customer"),
    ]);
    expect(await order()).toMatchObject({ affiliateId: ids.anna, attributionSource: "coupon" });
    expect(await moneyAndEvents()).toEqual(money);

    const db = shopDb(getDb(), ids.shop);
    const row = await order();
    const merchant = await getSaleDetail(db, row.id);
    expect(merchant.attribution.signals).toContainEqual({ s: "pixel", v: "differs", who: "Ben Test (BEN)" });
    const affiliate = await getAccountSale(db, ids.anna, row.id);
    expect(affiliate!.signals).toContainEqual({ s: "pixel", v: "differs" });
    expect(JSON.stringify(affiliate)).not.toContain("BEN");
  });

  it("a disagreeing pixel before the order: the coupon still wins, the pixel is listed as differing", async () => {
    expect((await pixel("BEN")).status).toBe(204);
    await deliverOrder();
    expect(await order()).toMatchObject({ affiliateId: ids.anna, attributionSource: "coupon" });
    expect(await signalsOf()).toContainEqual({ s: "pixel", v: "differs", who: "Ben Test (BEN)" });
  });

  it("replays change nothing: repeated and concurrent reports, and the webhook again", async () => {
    await deliverOrder();
    expect((await pixel("BEN")).status).toBe(204);
    const once = await order();
    const money = await moneyAndEvents();

    const again = await Promise.all(Array.from({ length: 6 }, () => pixel("BEN")));
    expect(again.map((r) => r.status)).toEqual(Array(6).fill(204));
    // A repeat has nothing to add: the row is not even written.
    expect((await order()).updatedAt).toEqual(once.updatedAt);
    expect((await order()).attributionSignals).toBe(once.attributionSignals);

    await deliverOrder();
    expect(await getDb().order.count({ where: { shopId: ids.shop } })).toBe(1);
    expect((await order()).attributionSignals).toBe(once.attributionSignals);
    expect(await moneyAndEvents()).toEqual(money);
  });

  it("finds the order by the order id the pixel reports when the checkout token differs", async () => {
    await deliverOrder((o) => {
      o.checkout_token = null;
    });
    expect((await pixel("ANNA", { checkout_token: "tok-other", order_id: ORDER_GID })).status).toBe(204);
    expect(await signalsOf()).toContainEqual(agrees("pixel"));
  });

  it("a report stored while the order was being recorded reaches the order by a job after the commit", async () => {
    const bulk = prismaBulk(getDb(), dialectOf(getDb()));
    const payload = JSON.parse(
      fixtureWith("orders_create.json", (o) => {
        o.cancelled_at = null;
        o.checkout_token = "tok-signals-1";
        o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
      }),
    ) as OrderPayload;
    const shop = { id: ids.shop, domain: SHOP, attributionModel: "last_click", pricingPlan: null };
    // Intake read no report; the report is stored (and finds no order) before intake writes.
    const plan = await planOrders(bulk, shop, [payload]);
    expect((await pixel("BEN")).status).toBe(204);
    await writeOrders(bulk, plan);
    expect(await signalsOf()).toContainEqual(none("pixel"));
    expect(await getDb().job.count({ where: { type: "pixel.reconcile" } })).toBe(1);

    await drainJobs();
    expect(await signalsOf()).toContainEqual({ s: "pixel", v: "differs", who: "Ben Test (BEN)" });
    expect(await order()).toMatchObject({ affiliateId: ids.anna, attributionSource: "coupon" });
  });

  it("orders with no pixel report queue no reconcile job", async () => {
    await deliverOrder();
    expect(await getDb().job.count({ where: { type: "pixel.reconcile" } })).toBe(0);
  });

  it("a pixel for a checkout with no order yet stores the report and touches no order", async () => {
    expect((await pixel("BEN")).status).toBe(204);
    expect(await getDb().order.count()).toBe(0);
    expect(await getDb().pixelEvent.count({ where: { shopId: ids.shop } })).toBe(1);
  });
});
