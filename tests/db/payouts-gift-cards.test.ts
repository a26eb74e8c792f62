import { beforeEach, describe, expect, it } from "vitest";
import { getDb, type Db } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { giftCardMarker } from "~/models/payouts/gift-card-code";
import { payoutGiftCardCode, sendGiftCards } from "~/models/payouts/senders/gift-card.server";
import { SCOPES } from "~/shopify.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useSmtpSink } from "../support/smtp-sink";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// Paying in Shopify gift cards (issue 30) against the store simulator
// (giftCardCreate checked against Shopify's Admin schema): one card per
// payout, for its amount, with the code derived from the payout and stored
// before Shopify is asked; a run that dies between Shopify's answer and our
// commit is followed by one that finds the card instead of issuing a second;
// the affiliate is e-mailed the code.

applyTestEnv();
const received = useSmtpSink().received;
const sim = useStoreSimulator();
useTestDatabase();
useMoneyCheck();

const SHOP = "payout-gift.myshopify.com";

beforeEach(() => {
  sim.reset();
  received.length = 0;
});

async function setup() {
  const db = getDb();
  await db.session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: SCOPES.join(",") },
  });
  const shop = await buildShop({ domain: SHOP });
  const campaign = await buildCampaign(shop.id);
  let n = 0;
  const pending = async (email: string, amount: number, currency = "USD") => {
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email, firstName: "Gia" });
    const payout = await db.payout.create({
      data: {
        shopId: shop.id,
        affiliateId: affiliate.id,
        amount,
        currency,
        status: "pending",
        openKey: `${affiliate.id}:${currency}`,
      },
    });
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id, currency });
    const line = await buildCommission(shop.id, order.id, affiliate.id, {
      amount,
      status: "approved",
      currency,
      sourceRef: `line-${n++}`,
    });
    await db.commission.update({ where: { id: line.id }, data: { payoutId: payout.id } });
    return payout;
  };
  const batch = (payoutIds: string[]) =>
    db.$transaction((tx) => createPayoutBatch(tx, shop.id, { payoutIds, method: "gift_card", createdBy: "test" }));
  return { db, shop, pending, batch };
}

const cards = () => sim.store.shop(SHOP).giftCards ?? [];

/** The database as a worker that dies right after Shopify answered: the transaction recording the answer throws. */
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

describe("gift card payouts", () => {
  it("issues one card for the amount per payout, stores its code and e-mails it to the affiliate", async () => {
    const { db, shop, pending, batch } = await setup();
    const p = await pending("gia@example.com", 4250);
    const { batchId } = await batch([p.id]);

    await drainJobs();
    const code = payoutGiftCardCode(p.id);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
    expect(cards()).toHaveLength(1);
    const card = cards()[0]!;
    expect(card).toMatchObject({ code, initialValue: 4250, balance: 4250, currency: "USD", customerId: null });
    expect(card.note).toContain(giftCardMarker(p.id));
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "paid",
      method: "gift_card",
      giftCardCode: code,
      reference: `gid://shopify/GiftCard/${card.id}`,
    });
    for (const r of sim.graphqlRequests()) expect(r.outcome).toMatchObject({ validated: true, errors: [] });

    const mail = () => received.filter((m) => (m.to && "text" in m.to ? m.to.text : "") === "gia@example.com");
    for (let i = 0; i < 100 && mail().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mail()).toHaveLength(1);
    const grouped = code.replace(/(.{4})(?=.)/g, "$1 ");
    expect(mail()[0]!.text).toContain(
      `your payment of $42.50 is a gift card for our store, to enter at checkout. Your code: ${grouped}`,
    );

    // Run again: nothing new is issued.
    await sendGiftCards(db, { id: batchId, shopId: shop.id, method: "gift_card" });
    expect(cards()).toHaveLength(1);
  });

  it("finds the card a crashed run made instead of issuing a second one", async () => {
    const { db, shop, pending, batch } = await setup();
    const p = await pending("gia@example.com", 2000);
    const { batchId } = await batch([p.id]);
    const target = { id: batchId, shopId: shop.id, method: "gift_card" as const };

    await expect(sendGiftCards(crashingAfterShopifyAnswers(db), target)).rejects.toThrow("worker killed");
    expect(cards()).toHaveLength(1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "processing",
      giftCardCode: payoutGiftCardCode(p.id),
    });

    await sendGiftCards(db, target);
    await sendGiftCards(db, target);
    expect(cards()).toHaveLength(1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "paid",
      reference: `gid://shopify/GiftCard/${cards()[0]!.id}`,
    });
    const created = sim.graphqlRequests().filter((r) => JSON.stringify(r.body ?? "").includes("giftCardCreate("));
    expect(created).toHaveLength(1);
  });

  it("takes Shopify's TAKEN for its own card when the card exists but the lookup came first", async () => {
    // Two runs that overlap: the second's look-up found nothing, then the first made the card.
    const { db, shop, pending, batch } = await setup();
    const p = await pending("gia@example.com", 1500);
    const { batchId } = await batch([p.id]);
    const code = payoutGiftCardCode(p.id);
    sim.store.shop(SHOP).giftCards = [
      {
        id: "777",
        code,
        currency: "USD",
        initialValue: 1500,
        balance: 1500,
        note: `made by the other run (${giftCardMarker(p.id)})`,
        customerId: null,
        expiresOn: null,
        createdAt: new Date().toISOString(),
      },
    ];
    await sendGiftCards(db, { id: batchId, shopId: shop.id, method: "gift_card" });
    expect(cards()).toHaveLength(1);
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "paid",
      reference: "gid://shopify/GiftCard/777",
    });
  });

  it("pays only in the shop's currency", async () => {
    const { db, shop, pending, batch } = await setup();
    const p = await pending("gia@example.com", 2000, "EUR");
    const { batchId } = await batch([p.id]);
    await sendGiftCards(db, { id: batchId, shopId: shop.id, method: "gift_card" });
    expect(await db.payout.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "failed",
      failureReason: "gift_card_currency:EUR",
      giftCardCode: null,
    });
    expect(cards()).toHaveLength(0);
  });
});
