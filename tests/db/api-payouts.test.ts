import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { payoutBatchResultSchema, payoutSchema } from "~/models/api/payout-schemas";
import { ApiClient, buildApiKey, buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

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

  it("is in the OpenAPI document", async () => {
    const doc = await (await fetch(server.url("/api/v1/openapi.json"))).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/payouts", "/api/v1/payouts/{id}", "/api/v1/payouts/{id}/mark-paid"]),
    );
    expect(Object.keys(doc.paths["/api/v1/payouts"])).toEqual(["get", "post"]);
  });
});
