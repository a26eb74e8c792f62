import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { emitEvent } from "~/models/events/emit-event.server";
import { enqueueFlowTrigger } from "~/models/flow/flow-trigger-queue.server";
import { linkLeakPayload } from "~/models/flow/flow-triggers";
import { sendFlowTrigger } from "~/models/flow/send-flow-trigger.server";
import { dispatchEvent } from "~/worker/dispatch-event.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAdvocate, buildAffiliate, buildCampaign, buildReferral, buildShop } from "../support/builders";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Shopify Flow triggers: each domain event that is a trigger becomes one
// FlowTrigger row after the commit of its change (the event dispatch), and
// the flow.trigger job sends it once with flowTriggerReceive to the store
// simulator, which checks the document against Shopify's Admin schema and
// the payload against the extension's fields, and records it.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();

const SHOP = "flow-shop.myshopify.com";
const received = () => sim.store.shop(SHOP).flowTriggers ?? [];
const sends = () => sim.graphqlRequests().filter((r) => r.outcome?.operation === "mutation FlowTriggerReceive");

beforeEach(() => sim.reset());

async function setup(options: { session?: boolean } = {}) {
  const shop = await buildShop({ domain: SHOP });
  if (options.session !== false)
    await getDb().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: "read_orders" },
    });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, {
    status: "pending",
    referralCode: "ANNA7",
    email: "anna@example.com",
    firstName: "Anna",
    lastName: "Berg",
  });
  return { shop, campaign, affiliate };
}

describe("Shopify Flow triggers", () => {
  it("sends each trigger once, after the commit of its change, with the extension's fields", async () => {
    const { shop, campaign, affiliate } = await setup();
    const db = getDb();

    // Affiliate approved: the admin's bulk approval (the batch dispatch path).
    await setAffiliatesStatus(shopDb(db, shop.id), [affiliate.id], "approve");
    // A sale credited, a commission approved, a payout paid and one failed, a
    // referral blocked by a fraud check, and a leak flagged by its watch.
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id, total: 12_000, name: "#1001" });
    const line = await buildCommission(shop.id, order.id, affiliate.id, { amount: 1_250, status: "approved" });
    const advocate = await buildAdvocate(shop.id, { email: "ben@example.com" });
    const referral = await buildReferral(shop.id, advocate.id, {
      orderName: "#1002",
      status: "blocked",
      blockedRule: "self_referral",
    });
    await db.$transaction(async (tx) => {
      await emitEvent(tx, shop.id, "sale.credited", { orderId: order.id, affiliateId: affiliate.id });
      await emitEvent(tx, shop.id, "commission.updated", {
        commissionId: line.id,
        affiliateId: affiliate.id,
        orderId: order.id,
        kind: "sale",
        status: "approved",
        amount: 1_250,
        currency: "USD",
      });
      const money = { amount: 5_000, currency: "USD", affiliateId: affiliate.id, method: "paypal" };
      await emitEvent(tx, shop.id, "payout.paid", { payoutId: "pay_1", ...money });
      await emitEvent(tx, shop.id, "payout.failed", { payoutId: "pay_2", ...money, reason: "RECEIVER_UNREGISTERED" });
      await emitEvent(tx, shop.id, "referral.created", { referralId: referral.id });
      await enqueueFlowTrigger(
        tx,
        shop.id,
        "link-leak-flagged",
        "leak:1",
        linkLeakPayload(affiliate, { code: "ANNA7", reason: "seen on a coupon site" }),
      );
    });
    // Not a trigger: a commission that is only created, and a referral that is not blocked.
    await db.$transaction((tx) =>
      emitEvent(tx, shop.id, "commission.created", {
        commissionId: line.id,
        affiliateId: affiliate.id,
        orderId: order.id,
        kind: "sale",
        amount: 1_250,
        currency: "USD",
      }),
    );
    expect(sends()).toHaveLength(0);

    await drainJobs();
    const byHandle = Object.fromEntries(received().map((t) => [t.handle, t.payload]));
    expect(
      received()
        .map((t) => t.handle)
        .sort(),
    ).toEqual([
      "affiliate-approved",
      "commission-approved",
      "link-leak-flagged",
      "payout-failed",
      "payout-paid",
      "referral-fraud-flagged",
      "sale-credited",
    ]);
    expect(byHandle["affiliate-approved"]).toEqual({
      "Affiliate ID": affiliate.id,
      "Affiliate email": "anna@example.com",
      "Affiliate name": "Anna Berg",
      "Referral code": "ANNA7",
      "Campaign ID": campaign.id,
    });
    expect(byHandle["sale-credited"]).toMatchObject({ "Order name": "#1001", "Order total": 120, Commission: 12.5 });
    expect(byHandle["commission-approved"]).toMatchObject({ "Commission ID": line.id, Amount: 12.5, Currency: "USD" });
    expect(byHandle["payout-failed"]).toMatchObject({ "Failure reason": "RECEIVER_UNREGISTERED", Amount: 50 });
    expect(byHandle["referral-fraud-flagged"]).toMatchObject({
      "Advocate email": "ben@example.com",
      "Fraud rule": "self_referral",
    });
    expect(await db.flowTrigger.count({ where: { shopId: shop.id, status: "sent" } })).toBe(7);

    // Replays change nothing: every event dispatched again, every trigger's job run again.
    const events = await db.domainEvent.findMany({ where: { shopId: shop.id } });
    for (const event of events) await dispatchEvent(event.id);
    await drainJobs();
    for (const row of await db.flowTrigger.findMany({ where: { shopId: shop.id } }))
      expect(await sendFlowTrigger({ triggerId: row.id }, db)).toBe("done before");
    expect(await db.flowTrigger.count({ where: { shopId: shop.id } })).toBe(7);
    expect(received()).toHaveLength(7);
    expect(sends()).toHaveLength(7);
  });

  it("sends nothing for a change that rolled back", async () => {
    const { shop, affiliate } = await setup();
    await getDb()
      .$transaction(async (tx) => {
        await tx.affiliate.update({ where: { id: affiliate.id }, data: { status: "approved" } });
        await emitEvent(tx, shop.id, "affiliate.approved", { affiliateId: affiliate.id });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    await drainJobs();
    expect(await getDb().flowTrigger.count()).toBe(0);
    expect(sends()).toHaveLength(0);
  });

  it("queues nothing for a shop without Admin access (standalone), and skips a shop uninstalled meanwhile", async () => {
    const { shop, affiliate } = await setup({ session: false });
    await setAffiliatesStatus(shopDb(getDb(), shop.id), [affiliate.id], "approve");
    await drainJobs();
    expect(await getDb().flowTrigger.count()).toBe(0);

    await getDb().session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: "" },
    });
    await getDb().$transaction((tx) =>
      enqueueFlowTrigger(
        tx,
        shop.id,
        "link-leak-flagged",
        "leak:2",
        linkLeakPayload(affiliate, { code: "X", reason: "r" }),
      ),
    );
    await getDb().shop.update({ where: { id: shop.id }, data: { uninstalledAt: new Date() } });
    await drainJobs();
    expect(await getDb().flowTrigger.findFirstOrThrow()).toMatchObject({ status: "skipped", sentAt: null });
    expect(sends()).toHaveLength(0);
  });

  it("records Shopify's refusal and does not send it again", async () => {
    const { shop } = await setup();
    // A row written by hand with a payload that misses the trigger's fields.
    const row = await getDb().flowTrigger.create({
      data: { shopId: shop.id, handle: "payout-paid", dedupeKey: "bad", payload: JSON.stringify({ "Payout ID": "p" }) },
    });
    expect(await sendFlowTrigger({ triggerId: row.id }, getDb())).toBe("refused");
    expect(await getDb().flowTrigger.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "refused" });
    expect(String((await getDb().flowTrigger.findUniqueOrThrow({ where: { id: row.id } })).result)).toContain(
      "Missing field(s)",
    );
    expect(await sendFlowTrigger({ triggerId: row.id }, getDb())).toBe("done before");
    expect(received()).toHaveLength(0);
  });
});
