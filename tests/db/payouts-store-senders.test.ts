import { beforeEach, describe, expect, it } from "vitest";
import { getDb, type Db } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { sendPayoutBatch } from "~/models/payouts/send-payout-batch.server";
import { payoutDiscountCode, sendDiscountCodes } from "~/models/payouts/senders/discount-code.server";
import { sendStoreCredit } from "~/models/payouts/senders/store-credit.server";
import { SCOPES } from "~/shopify.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// Paying in Shopify store credit and in single-use discount codes, against
// the store simulator (Shopify's Admin schema, its user errors and scopes):
// a sent batch ends each payout paid (with Shopify's id as its reference) or
// failed (lines payable again), and a sender run again, also after a crash
// between Shopify's answer and our commit, never credits twice nor makes a
// second code.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
useMoneyCheck();

const SHOP = "payout-store.myshopify.com";
const SAM = "gid://shopify/Customer/9400000000"; // the simulator's first shopper, sam.shopper@example.net

beforeEach(() => sim.reset());

async function setup() {
  const db = getDb();
  await db.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      accessToken: sim.accessToken(SHOP),
      scope: SCOPES.join(","),
    },
  });
  const shop = await buildShop({ domain: SHOP });
  const campaign = await buildCampaign(shop.id);
  const affiliate = async (email: string, customerGid: string | null) => {
    const a = await buildAffiliate(shop.id, campaign.id, { email });
    return db.affiliate.update({ where: { id: a.id }, data: { customerGid, firstName: "Sam", lastName: "Shopper" } });
  };
  let n = 0;
  const pending = async (affiliateId: string, amount: number, currency = "USD") => {
    const payout = await db.payout.create({
      data: {
        shopId: shop.id,
        affiliateId,
        amount,
        currency,
        status: "pending",
        openKey: `${affiliateId}:${currency}`,
      },
    });
    const order = await buildOrder(shop.id, { affiliateId, currency });
    const line = await buildCommission(shop.id, order.id, affiliateId, {
      amount,
      status: "approved",
      currency,
      sourceRef: `line-${n++}`,
    });
    await db.commission.update({ where: { id: line.id }, data: { payoutId: payout.id } });
    return payout;
  };
  const batch = (payoutIds: string[], method: "store_credit" | "discount_code") =>
    db.$transaction((tx) => createPayoutBatch(tx, shop.id, { payoutIds, method, createdBy: "test" }));
  return { db, shop, affiliate, pending, batch };
}

const store = () => sim.store.shop(SHOP);
const creditsOf = (customerGid: string) =>
  store()
    .storeCreditAccounts.filter((a) => `gid://shopify/Customer/${a.customerId}` === customerGid)
    .flatMap((a) => a.transactions.map((t) => ({ ...t, currency: a.currency })));

/**
 * The database as a worker that dies right after Shopify answered: the
 * transaction that would record the answer (the sender's second) throws.
 */
function crashingAfterShopifyAnswers(db: Db): Db {
  let transactions = 0;
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key === "$transaction")
        return (...args: unknown[]) => {
          if (++transactions === 2) return Promise.reject(new Error("worker killed"));
          return (target.$transaction as (...a: unknown[]) => unknown)(...args);
        };
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe("store credit payouts", () => {
  it("credits each affiliate's customer account and settles every payout", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const linked = await affiliate("sam-affiliate@example.com", SAM);
    // Not linked yet, but shops with the affiliate's e-mail: found and linked.
    const byEmail = await affiliate("rita.returns@example.net", null);
    const stranger = await affiliate("nobody@example.com", null);
    const p1 = await pending(linked.id, 2550);
    const p2 = await pending(byEmail.id, 1000);
    const p3 = await pending(stranger.id, 700);
    const { batchId } = await batch([p1.id, p2.id, p3.id], "store_credit");

    await drainJobs();
    const [one, two, three] = await Promise.all(
      [p1, p2, p3].map((p) => db.payout.findUniqueOrThrow({ where: { id: p.id } })),
    );
    const samCredits = creditsOf(SAM);
    expect(samCredits).toEqual([expect.objectContaining({ kind: "credit", amount: 2550, currency: "USD" })]);
    expect(one).toMatchObject({
      status: "paid",
      method: "store_credit",
      reference: `gid://shopify/StoreCreditAccountCreditTransaction/${samCredits[0]!.id}`,
    });
    const rita = (await db.affiliate.findUniqueOrThrow({ where: { id: byEmail.id } })).customerGid!;
    expect(rita).toBe("gid://shopify/Customer/9400000001");
    expect(creditsOf(rita).map((c) => c.amount)).toEqual([1000]);
    expect(two.status).toBe("paid");
    expect(three).toMatchObject({ status: "failed", failureReason: "not_a_customer" });
    // The failed payout's lines are payable again: back in the balance, which
    // the payouts.refresh job (queued by payout.failed) gathers into a new pending payout.
    const line = await db.commission.findFirstOrThrow({
      where: { affiliateId: stranger.id },
      include: { payout: true },
    });
    expect(line.payoutId).not.toBe(three.id);
    expect(line.payout?.status ?? "in the balance").toMatch(/^(in the balance|pending)$/);
    expect(await db.commission.count({ where: { affiliateId: linked.id, status: "paid" } })).toBe(1);
    expect(await db.payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "done" });
    expect(await db.domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(2);
    // Every request was valid against Shopify's schema and within the granted scopes.
    for (const r of sim.graphqlRequests()) expect(r.outcome).toMatchObject({ validated: true, errors: [] });

    // The job again (a repeat after a crash), or the sender itself: nothing more is credited.
    await sendPayoutBatch(db, batchId);
    await sendStoreCredit(db, { id: batchId, shopId: shop.id, method: "store_credit" });
    expect(creditsOf(SAM)).toHaveLength(1);
    expect(creditsOf(rita)).toHaveLength(1);
  });

  it("finds the credit a crashed run made instead of crediting again", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    // A credit of the same amount from before this payout was sent is not its credit.
    const account = { id: "77", customerId: "9400000000", currency: "USD", balance: 4000, transactions: [] as never[] };
    store().storeCreditAccounts.push({
      ...account,
      transactions: [
        {
          id: "78",
          kind: "credit",
          amount: 4000,
          balanceAfter: 4000,
          createdAt: "2026-01-01T00:00:00.000Z",
          expiresAt: null,
        },
      ] as never[],
    });
    const p = await pending(sam.id, 4000);
    const { batchId } = await batch([p.id], "store_credit");
    const target = { id: batchId, shopId: shop.id, method: "store_credit" as const };

    await expect(sendStoreCredit(crashingAfterShopifyAnswers(db), target)).rejects.toThrow("worker killed");
    expect(creditsOf(SAM).map((c) => c.amount)).toEqual([4000, 4000]);
    const crashed = await db.payout.findUniqueOrThrow({ where: { id: p.id } });
    expect(crashed.status).toBe("processing");
    expect(crashed.sentAt).not.toBeNull();

    await sendStoreCredit(db, target);
    await sendStoreCredit(db, target);
    const credits = creditsOf(SAM);
    expect(credits).toHaveLength(2);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "paid",
      reference: `gid://shopify/StoreCreditAccountCreditTransaction/${credits[1]!.id}`,
    });
    expect(store().storeCreditAccounts.find((a) => a.id === "77")!.balance).toBe(8000);
  });

  it("fails the batch's payouts when Shopify refuses, or the shop has no access", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    // The shop sells in USD: Shopify opens no store credit account in another currency.
    const eur = await pending(sam.id, 900, "EUR");
    const first = await batch([eur.id], "store_credit");
    await sendStoreCredit(db, { id: first.batchId, shopId: shop.id, method: "store_credit" });
    expect(await db.payout.findUniqueOrThrow({ where: { id: eur.id } })).toMatchObject({
      status: "failed",
      failureReason: "shopify_refused:The currency provided is not supported by the shop.",
    });

    const usd = await pending(sam.id, 900);
    const second = await batch([usd.id], "store_credit");
    await db.session.deleteMany({ where: { shop: SHOP } });
    await sendStoreCredit(db, { id: second.batchId, shopId: shop.id, method: "store_credit" });
    expect(await db.payout.findUniqueOrThrow({ where: { id: usd.id } })).toMatchObject({
      status: "failed",
      failureReason: "no_store_access",
    });
    expect(creditsOf(SAM)).toEqual([]);
  });

  it("fails the payouts, rather than retrying for ever, in a shop that has not granted the store credit scopes", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    const p = await pending(sam.id, 900);
    const { batchId } = await batch([p.id], "store_credit");
    // Installed before store credit payouts existed: Shopify asks for the new scopes at the next OAuth.
    store().scopes = store().scopes.filter((s) => !s.includes("store_credit"));
    await sendStoreCredit(db, { id: batchId, shopId: shop.id, method: "store_credit" });
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "failed",
      failureReason: "no_store_access",
    });
    expect(await db.commission.count({ where: { affiliateId: sam.id, payoutId: null } })).toBe(1);
  });
});

describe("discount code payouts", () => {
  it("makes one single-use code for the amount, for the affiliate's customer account, and stores it", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    const stranger = await affiliate("nobody@example.com", null);
    const p1 = await pending(sam.id, 1250);
    const p2 = await pending(stranger.id, 300);
    const { batchId } = await batch([p1.id, p2.id], "discount_code");

    await drainJobs();
    const one = await db.payout.findUniqueOrThrow({ where: { id: p1.id } });
    const code = payoutDiscountCode(p1.id);
    expect(code).toMatch(/^PAY-[A-HJ-NP-Z2-9]{12}$/);
    const discount = store().discounts.find((d) => d.codes.some((c) => c.code === code))!;
    expect(one).toMatchObject({
      status: "paid",
      method: "discount_code",
      discountCode: code,
      reference: `gid://shopify/DiscountCodeNode/${discount.id}`,
    });
    expect(discount).toMatchObject({
      usageLimit: 1,
      appliesOncePerCustomer: true,
      customerIds: ["9400000000"],
      value: { type: "amount", amount: "12.50", appliesOnEachItem: false },
    });
    // Not a customer of the store: a code anyone holding it may use (only this affiliate is shown it).
    const two = await db.payout.findUniqueOrThrow({ where: { id: p2.id } });
    expect(two).toMatchObject({ status: "paid", discountCode: payoutDiscountCode(p2.id) });
    expect(store().discounts.find((d) => d.codes.some((c) => c.code === two.discountCode))).toMatchObject({
      customerIds: null,
      usageLimit: 1,
    });
    for (const r of sim.graphqlRequests()) expect(r.outcome).toMatchObject({ validated: true, errors: [] });

    const before = store().discounts.length;
    await sendPayoutBatch(db, batchId);
    await sendDiscountCodes(db, { id: batchId, shopId: shop.id, method: "discount_code" });
    expect(store().discounts.length).toBe(before);
  });

  it("finds the code a crashed run made instead of making a second one", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    const p = await pending(sam.id, 2000);
    const { batchId } = await batch([p.id], "discount_code");
    const target = { id: batchId, shopId: shop.id, method: "discount_code" as const };
    const before = store().discounts.length;

    await expect(sendDiscountCodes(crashingAfterShopifyAnswers(db), target)).rejects.toThrow("worker killed");
    expect(store().discounts.length).toBe(before + 1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "processing",
      discountCode: payoutDiscountCode(p.id),
    });

    await sendDiscountCodes(db, target);
    await sendDiscountCodes(db, target);
    expect(store().discounts.length).toBe(before + 1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "paid",
      discountCode: payoutDiscountCode(p.id),
    });
  });

  it("pays only in the shop's currency", async () => {
    const { db, shop, affiliate, pending, batch } = await setup();
    const sam = await affiliate("sam-affiliate@example.com", SAM);
    const p = await pending(sam.id, 2000, "EUR");
    const { batchId } = await batch([p.id], "discount_code");
    await sendDiscountCodes(db, { id: batchId, shopId: shop.id, method: "discount_code" });
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "failed",
      failureReason: "currency_not_shop:EUR",
      discountCode: null,
    });
  });
});
