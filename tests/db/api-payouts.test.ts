import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { payoutBatchResultSchema, payoutSchema } from "~/models/api/payout-schemas";
import { ApiClient, buildApiKey, buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";
import { shopDb } from "~/db/shop-db.server";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { saveAffiliatePayoutCurrency } from "~/models/payouts/affiliate-payout-choice.server";
import { addMerchantRate } from "~/models/payouts/rate-table.server";

// /api/v1/payouts over real HTTP against the built app: create and send the
// pending payouts by method, list and filter them, mark one paid (twice:
// nothing changes), bad input is a 4xx that changes nothing, another shop's
// payout is 404, and the OpenAPI document describes the endpoints.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

async function setUp() {
  const shop = await buildShop();
  const { key } = await buildApiKey(shop.id);
  const campaign = await buildCampaign(shop.id);
  const ana = await buildAffiliate(shop.id, campaign.id);
  const ben = await buildAffiliate(shop.id, campaign.id);
  let n = 0;
  for (const [affiliateId, amount] of [
    [ana.id, 1000],
    [ana.id, 500],
    [ben.id, 700],
  ] as const) {
    const order = await buildOrder(shop.id, { affiliateId });
    await buildCommission(shop.id, order.id, affiliateId, { amount, status: "approved", sourceRef: `s${n++}` });
  }
  return { shop, api: new ApiClient(server.url, key), ana, ben };
}

describe("/api/v1/payouts", () => {
  it("creates and sends the pending payouts of the given affiliates, lists them, marks one paid once", async () => {
    const { api, ana, ben } = await setUp();
    const res = await api.post("/api/v1/payouts", { affiliate_ids: [ana.id], method: "manual" });
    expect(res.status, await res.clone().text()).toBe(201);
    const result = payoutBatchResultSchema.parse(await res.json());
    expect(result.batch_id).not.toBeNull();
    expect(result.payouts.map((p) => [p.affiliate_id, p.amount, p.status, p.method, p.line_count])).toEqual([
      [ana.id, 1500, "processing", "manual", 2],
    ]);

    const list = await (await api.get(`/api/v1/payouts?status=processing`)).json();
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([result.payouts[0]!.id]);
    const benList = await (await api.get(`/api/v1/payouts?affiliate_id=${ben.id}`)).json();
    expect(benList.data).toEqual([]); // ben was not asked for

    const id = result.payouts[0]!.id;
    const paid = await api.post(`/api/v1/payouts/${id}/mark-paid`, { reference: "WIRE-1" });
    expect(paid.status).toBe(200);
    expect(payoutSchema.parse(await paid.json())).toMatchObject({ status: "paid", reference: "WIRE-1" });
    // The same request again (a retry) gets the same answer; another payment is a conflict.
    const again = await api.post(`/api/v1/payouts/${id}/mark-paid`, { reference: "WIRE-1" });
    expect([again.status, (await again.json()).reference]).toEqual([200, "WIRE-1"]);
    const other = await api.post(`/api/v1/payouts/${id}/mark-paid`, { reference: "OTHER" });
    expect(other.status).toBe(409);
    expect(await getDb().domainEvent.count({ where: { type: "payout.paid" } })).toBe(1);
    const one = await (await api.get(`/api/v1/payouts/${id}`)).json();
    expect(one.status).toBe("paid");
  });

  it("pays every eligible affiliate when no ids are given", async () => {
    const { api } = await setUp();
    const res = await api.post("/api/v1/payouts", { method: "csv" });
    const result = payoutBatchResultSchema.parse(await res.json());
    expect(result.payouts.map((p) => p.amount).sort()).toEqual([1500, 700].sort());
    const none = payoutBatchResultSchema.parse(await (await api.post("/api/v1/payouts", { method: "csv" })).json());
    expect(none).toEqual({ batch_id: null, batch_ids: [], payouts: [] });
  });

  it("refuses bad input with a 4xx and changes nothing; another shop's payout is 404", async () => {
    const { api, ana } = await setUp();
    expect((await api.post("/api/v1/payouts", { method: "cheque" })).status).toBe(422);
    expect((await api.post("/api/v1/payouts", { method: "manual", affiliate_ids: ["nope"] })).status).toBe(422);
    expect((await api.post("/api/v1/payouts", { method: "manual", extra: 1 })).status).toBe(422);
    // PayPal is not connected: the method is not available.
    expect((await api.post("/api/v1/payouts", { affiliate_ids: [ana.id], method: "paypal" })).status).toBe(422);
    expect(await getDb().payoutBatch.count()).toBe(0);

    const other = await setUp();
    const theirs = payoutBatchResultSchema.parse(
      await (await other.api.post("/api/v1/payouts", { method: "manual" })).json(),
    );
    const id = theirs.payouts[0]!.id;
    expect((await api.get(`/api/v1/payouts/${id}`)).status).toBe(404);
    expect((await api.post(`/api/v1/payouts/${id}/mark-paid`, {})).status).toBe(404);
    expect((await getDb().payout.findUniqueOrThrow({ where: { id } })).status).toBe("processing");
    expect((await api.post(`/api/v1/payouts/${id}/mark-paid`, { paid_at: "yesterday" })).status).toBe(422);
  });

  it("shows why a pending payout waits, and the converted amount once it left pending", async () => {
    const { shop, api, ana, ben } = await setUp();
    // The shop pays in CAD too (ADR 052) and wants a tax form before every payout (ADR 041).
    await saveShopSetting(getDb(), shop.id, "payment", paymentSettingsSchema.parse({ payoutCurrencies: ["CAD"] }));
    await saveShopSetting(getDb(), shop.id, "taxForms", { require: "always", amount: 60_000 });
    await saveAffiliatePayoutCurrency(getDb(), shop.id, ana.id, { payoutCurrency: "CAD" });
    await gatherPendingPayouts(shop.id);

    const pending = await (await api.get("/api/v1/payouts?status=pending")).json();
    const byAffiliate = new Map(
      pending.data.map((p: unknown) => {
        const payout = payoutSchema.strict().parse(p);
        return [payout.affiliate_id, payout];
      }),
    );
    const taxHold = {
      reason: "Waits for the affiliate's tax form",
      reason_key: "Tax:hold.tax_form_required",
      reason_values: {},
    };
    expect(byAffiliate.get(ana.id)).toMatchObject({
      amount: 1500,
      currency: "USD",
      payout_currency: null,
      payout_amount: null,
      exchange_rate: null,
      rate_source: null,
      rate_at: null,
      holds: [
        taxHold,
        {
          reason: "Waits: no exchange rate for CAD",
          reason_key: "Payouts:rateHold.rate_missing",
          reason_values: { currency: "CAD", days: 7 },
        },
      ],
    });
    expect(byAffiliate.get(ben.id)).toMatchObject({ payout_currency: null, holds: [taxHold] });
    const anaPayoutId = (byAffiliate.get(ana.id) as { id: string }).id;
    expect((await (await api.get(`/api/v1/payouts/${anaPayoutId}`)).json()).holds).toHaveLength(2);

    // A rate older than seven days still holds it, with the limit in the values.
    const sdb = shopDb(getDb(), shop.id);
    await addMerchantRate(sdb, { currency: "CAD", rate: "1.30" }, "Mia", new Date(Date.now() - 8 * 86_400_000));
    await saveShopSetting(getDb(), shop.id, "taxForms", { require: "off", amount: 60_000 });
    expect((await (await api.get(`/api/v1/payouts/${anaPayoutId}`)).json()).holds).toEqual([
      {
        reason: "Waits: no exchange rate for CAD from the last 7 days",
        reason_key: "Payouts:rateHold.rate_stale",
        reason_values: { currency: "CAD", days: 7 },
      },
    ]);
    // A GET never writes: nothing was converted or stored as held.
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: anaPayoutId } })).toMatchObject({
      status: "pending",
      payoutAmount: null,
    });

    // With a fresh rate it pays, converted once as it leaves pending; ben is paid in the shop's money.
    await addMerchantRate(sdb, { currency: "CAD", rate: "1.3521" }, "Mia");
    const res = await api.post("/api/v1/payouts", { method: "manual" });
    expect(res.status, await res.clone().text()).toBe(201);
    const sent = payoutBatchResultSchema.parse(await res.json());
    const rate = await getDb().exchangeRate.findFirstOrThrow({ where: { shopId: shop.id, rate: "1.3521" } });
    const converted = {
      id: anaPayoutId,
      amount: 1500,
      currency: "USD",
      payout_currency: "CAD",
      payout_amount: 2028, // 15.00 × 1.3521 = 20.2815 → CA$20.28, in cents like every amount
      exchange_rate: "1.3521",
      rate_source: "merchant",
      rate_at: rate.at.toISOString(),
      status: "processing",
      holds: [],
    };
    expect(sent.payouts.find((p) => p.affiliate_id === ana.id)).toMatchObject(converted);
    expect(sent.payouts.find((p) => p.affiliate_id === ben.id)).toMatchObject({
      amount: 700,
      payout_currency: null,
      payout_amount: null,
      exchange_rate: null,
      holds: [],
    });
    expect(payoutSchema.strict().parse(await (await api.get(`/api/v1/payouts/${anaPayoutId}`)).json())).toMatchObject(
      converted,
    );
  });

  it("is in the OpenAPI document", async () => {
    const doc = await (await fetch(server.url("/api/v1/openapi.json"))).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/payouts", "/api/v1/payouts/{id}", "/api/v1/payouts/{id}/mark-paid"]),
    );
    expect(Object.keys(doc.paths["/api/v1/payouts"])).toEqual(["get", "post"]);
    expect(Object.keys(doc.components.schemas.Payout.properties)).toEqual(
      expect.arrayContaining(["payout_currency", "payout_amount", "exchange_rate", "rate_source", "rate_at", "holds"]),
    );
  });
});
