import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { getSaleDetail } from "~/models/sales/sale-detail.server";
import { sampleOrder } from "~/models/shopify/sample-payloads";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";

// Shopify Markets: a customer pays in their own (presentment) currency. The
// commission is computed on shop money; the order keeps what the customer
// paid and the rate Shopify's two totals imply, and the sale screen shows
// them. Real webhooks (signed) through the app's server and job worker.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const SHOP = "markets-shop.myshopify.com";
let shopId: string;

beforeEach(async () => {
  const db = getDb();
  const shop = await db.shop.create({
    data: { domain: SHOP, name: "Markets", url: `https://${SHOP}`, adminEmail: "o@x.example", pricingPlan: "growth" },
  });
  shopId = shop.id;
  const campaign = await db.campaign.create({
    data: { shopId, name: "Main", status: "active", commissionType: "percent", commissionValue: 1000 },
  });
  const affiliate = await db.affiliate.create({
    data: {
      shopId,
      campaignId: campaign.id,
      email: "cam@aff.example",
      firstName: "Cam",
      lastName: "Test",
      status: "approved",
      referralCode: "CAM",
    },
  });
  await db.coupon.create({ data: { shopId, affiliateId: affiliate.id, code: "CAM10" } });
});

async function deliver(body: string) {
  const res = await new HttpClient(server.url).request("/webhooks", {
    method: "POST",
    body,
    headers: webhookHeaders("orders/create", SHOP, body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  await drainJobs();
}

const LINES = [
  { title: "Merino beanie", price: "40.00", quantity: 1 },
  { title: "Trail runner shoes", price: "60.00", quantity: 1 },
];

describe("orders paid in another currency", () => {
  it("earns commission on shop money and keeps the customer's total and the implied rate", async () => {
    const order = sampleOrder({ couponCode: "CAM10", lines: LINES, presentment: { currency: "CAD", rate: 1.3521 } });
    await deliver(order.text);

    const stored = await getDb().order.findFirstOrThrow({ where: { shopId } });
    // 100.00 less 10 % = 90.00 USD; the customer paid 121.69 CAD.
    expect(stored).toMatchObject({
      currency: "USD",
      subtotal: 9000,
      total: 9000,
      presentmentCurrency: "CAD",
      presentmentTotal: 12169,
      presentmentRate: "1.35211111",
    });
    const [line] = await getDb().commission.findMany({ where: { shopId } });
    expect(line).toMatchObject({ amount: 900, currency: "USD" });

    const sale = await getSaleDetail(shopDb(getDb(), shopId), stored.id);
    expect(sale.presentment).toEqual({ currency: "CAD", total: 12169, rate: "1.35211111" });
  });

  it("reads a currency without decimals on the customer's side", async () => {
    await deliver(sampleOrder({ couponCode: "CAM10", lines: LINES, presentment: { currency: "JPY", rate: 150 } }).text);
    const stored = await getDb().order.findFirstOrThrow({ where: { shopId } });
    expect(stored).toMatchObject({
      total: 9000,
      presentmentCurrency: "JPY",
      presentmentTotal: 13500,
      presentmentRate: "150",
    });
    expect((await getDb().commission.findFirstOrThrow({ where: { shopId } })).amount).toBe(900);
  });

  it("stores nothing extra for an order in the shop's own currency", async () => {
    await deliver(sampleOrder({ couponCode: "CAM10", lines: LINES }).text);
    const stored = await getDb().order.findFirstOrThrow({ where: { shopId } });
    expect(stored).toMatchObject({
      total: 9000,
      presentmentCurrency: null,
      presentmentTotal: null,
      presentmentRate: null,
    });
    expect((await getSaleDetail(shopDb(getDb(), shopId), stored.id)).presentment).toBeNull();
  });
});
