import { beforeEach, describe, expect, it } from "vitest";
import { getDb, type Db } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { drainJobs } from "~/worker/job-registry.server";
import * as referralJobs from "~/models/referrals/jobs.server";
import { emailKey } from "~/models/referrals/email-key";
import { issueReferralReward, referralRewardCode } from "~/models/referrals/issue-referral-reward.server";
import { overrideReferral } from "~/models/referrals/override-referral.server";
import { DEFAULT_REFERRAL_PROGRAM, type ReferralProgram } from "~/models/referrals/program-settings";
import { INVITE_DEVICE_ATTRIBUTE, INVITE_TOKEN_ATTRIBUTE } from "~/models/referrals/share-link";
import { processEvent } from "~/models/webhooks/process-webhook.server";
import { SCOPES } from "~/shopify.server";
import { HttpClient } from "../support/http-client";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";
import { useMoneyCheck } from "../support/money-check";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Refer-a-friend from real Shopify webhook bodies: a friend's order with the
// advocate's code (or through the share link) becomes a referral with its
// reason and checks; after the hold the advocate's reward exists in the store
// simulator, once, also after a crash; a refund within the hold cancels it; a
// blocked referral gives nothing until the merchant approves it.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();
useMoneyCheck();
const server = useTestServer();

const SHOP = "raf-engine.myshopify.com";
const ORDER_GID = "gid://shopify/Order/820982911946154508";
const SAM = { email: "sam.shopper@example.net", gid: "gid://shopify/Customer/9400000000" }; // the simulator's first shopper
const DAY = 86_400_000;

let shopId: string;
let advocateId: string;

async function setup(program: Partial<ReferralProgram> = {}) {
  const db = getDb();
  await db.session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: SCOPES.join(",") },
  });
  const settings = JSON.stringify({ referrals: { ...DEFAULT_REFERRAL_PROGRAM, enabled: true, ...program } });
  const shop = await db.shop.create({
    data: {
      domain: SHOP,
      name: "RAF shop",
      url: `https://${SHOP}`,
      adminEmail: "o@raf.example",
      pricingPlan: "growth",
      settings,
    },
  });
  await db.campaign.create({ data: { shopId: shop.id, name: "Main", status: "active", isDefault: true } });
  // The STOREFRONT slice makes advocates (ensureAdvocate); here the row is written directly.
  const advocate = await db.referralAdvocate.create({
    data: {
      shopId: shop.id,
      email: SAM.email,
      emailKey: emailKey(SAM.email),
      firstName: "Sam",
      token: "samtoken42",
      friendCode: "SAMFRIEND",
    },
  });
  shopId = shop.id;
  advocateId = advocate.id;
}

beforeEach(() => sim.reset());

async function deliver(topic: string, body: string) {
  const res = await new HttpClient(server.url).request("/webhooks", {
    method: "POST",
    body,
    headers: webhookHeaders(topic, SHOP, body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  await drainJobs();
}

// The fixture is a cancelled test order by jon@example.com; the scenarios start from a live one.
const friendOrder = (edit: (o: Record<string, any>) => void = () => {}) =>
  fixtureWith("orders_create.json", (o) => {
    o.cancelled_at = null;
    o.order_status_url = orderStatusUrl(SHOP);
    o.discount_codes = [{ code: "samfriend", amount: "10.00", type: "percentage" }];
    o.browser_ip = "203.0.113.7";
    // Placed now, so the hold ends in the future.
    o.created_at = o.processed_at = new Date().toISOString();
    edit(o);
  });
const fullRefund = () => fixtureWith("refunds_create.json", () => {});

const referral = () =>
  getDb().referral.findUniqueOrThrow({ where: { shopId_orderGid: { shopId, orderGid: ORDER_GID } } });
const checksOf = async () =>
  Object.fromEntries(
    (JSON.parse((await referral()).checks) as { rule: string; outcome: string; detail: string }[]).map((c) => [
      c.rule,
      `${c.outcome} ${c.detail}`,
    ]),
  );
const codesInStore = () => sim.store.shop(SHOP).discounts.flatMap((d) => d.codes.map((c) => c.code));
const rewardJobs = () => getDb().job.findMany({ where: { type: "referrals.reward" } });

/** The hold is over: the referral's end and its queued reward job moved to now. */
async function endHold(db: Db = getDb()) {
  const past = new Date(Date.now() - 1000);
  await db.referral.updateMany({ where: { shopId }, data: { holdUntil: past } });
  await db.job.updateMany({ where: { type: "referrals.reward", status: "queued" }, data: { runAt: past } });
}

/** The database as a worker that dies right after Shopify answered: the transaction recording the answer throws. */
function crashingOnTransaction(db: Db): Db {
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key === "$transaction") return () => Promise.reject(new Error("worker killed"));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe("a friend's order with the advocate's code", () => {
  it("becomes a pending referral with its reason, checks, hold and reward snapshot, and an event", async () => {
    await setup({ holdDays: 14 });
    await deliver("orders/create", friendOrder());
    const r = await referral();
    expect(r).toMatchObject({
      advocateId,
      source: "code",
      friendCode: "SAMFRIEND",
      friendEmail: "jon@example.com",
      status: "pending",
      blockedRule: null,
      orderName: "#9999",
      currency: "USD",
      orderTotal: 40495,
      rewardKind: "discount_code",
      rewardValue: 1000,
      rewardCurrency: "USD",
    });
    expect(r.reason).toBe('Referrals:reason.shared_code{"code":"SAMFRIEND","advocate":"sam.shopper@example.net"}');
    expect(r.holdUntil.getTime() - r.placedAt.getTime()).toBe(14 * DAY);
    expect(r.ipHash).toMatch(/^[0-9a-f]{32}$/);
    expect(await checksOf()).toEqual({
      self_referral: "pass checks.self_referral.pass",
      similar_email: "pass checks.similar_email.pass",
      existing_customer: "pass checks.existing_customer.pass",
      burst: "pass checks.burst.pass",
      coupon_site: "pass checks.coupon_site.pass",
      program_rules: "pass checks.program_rules.pass",
    });
    const events = await getDb().domainEvent.findMany({ where: { shopId, type: "referral.created" } });
    expect(events.map((e) => JSON.parse(e.data))).toEqual([{ referralId: r.id }]);
    const jobs = await rewardJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.runAt.getTime()).toBe(r.holdUntil.getTime());

    // orders/paid of the same order, and the same job again: still one referral.
    await deliver("orders/paid", friendOrder());
    expect(await getDb().referral.count()).toBe(1);
    expect(await getDb().domainEvent.count({ where: { type: "referral.created" } })).toBe(1);
  });

  it("after the hold, the advocate's reward code exists in the store, for their customer, and the e-mail is queued", async () => {
    await setup();
    await deliver("orders/create", friendOrder());
    await drainJobs();
    expect((await referral()).status).toBe("pending"); // still held
    await endHold();
    await drainJobs();

    const r = await referral();
    const code = referralRewardCode(r.id);
    expect(r).toMatchObject({ status: "rewarded", rewardCode: code });
    expect(r.rewardGid).toMatch(/^gid:\/\/shopify\/DiscountCodeNode\//);
    const discount = sim.store.shop(SHOP).discounts.find((d) => d.codes.some((c) => c.code === code))!;
    expect(discount).toMatchObject({
      usageLimit: 1,
      customerIds: [SAM.gid.split("/").pop()],
      value: { type: "amount", amount: "10.00" },
    });
    expect((await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: advocateId } })).customerGid).toBe(SAM.gid);
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "advocate.referral_reward" } });
    expect(mail.toAddress).toBe(SAM.email);
    expect(mail.subject).toBe("Your reward from RAF shop");
    expect(mail.text).toContain("Your reward: $10.00");
    expect(mail.text).toContain(`Your discount code: ${code}`);

    // The job again: nothing new.
    await issueReferralReward(getDb(), r.id);
    expect(codesInStore().filter((c) => c === code)).toHaveLength(1);
    expect(await getDb().outboxEmail.count({ where: { kind: "advocate.referral_reward" } })).toBe(1);
  });

  it("a crash right after Shopify made a fresh code: the retry finds it", async () => {
    await setup({ holdDays: 14 });
    await deliver("orders/create", friendOrder());
    await endHold();
    const r = await referral();
    await expect(issueReferralReward(crashingOnTransaction(getDb()), r.id)).rejects.toThrow("worker killed");
    const code = referralRewardCode(r.id);
    expect(codesInStore().filter((c) => c === code)).toHaveLength(1);
    expect(await referral()).toMatchObject({ status: "pending", rewardCode: code });
    await drainJobs();
    await issueReferralReward(getDb(), r.id);
    expect(codesInStore().filter((c) => c === code)).toHaveLength(1);
    expect(await referral()).toMatchObject({ status: "rewarded", rewardCode: code });
  });
});

describe("other ways in and other rewards", () => {
  it("ties an order through the share link's cart attribute, with the device", async () => {
    await setup();
    await deliver(
      "orders/create",
      friendOrder((o) => {
        o.discount_codes = [];
        o.note_attributes = [
          { name: INVITE_TOKEN_ATTRIBUTE, value: "samtoken42" },
          { name: INVITE_DEVICE_ATTRIBUTE, value: "device-1" },
        ];
      }),
    );
    expect(await referral()).toMatchObject({
      source: "link",
      friendCode: null,
      deviceId: "device-1",
      reason: 'Referrals:reason.link{"advocate":"sam.shopper@example.net"}',
    });
  });

  it("marks a unique code used by the order", async () => {
    await setup({ codeMode: "unique" });
    await getDb().referralFriendCode.create({
      data: { shopId, advocateId, code: "SAM-ONE-1", requestKey: "friend-1" },
    });
    await deliver(
      "orders/create",
      friendOrder((o) => (o.discount_codes = [{ code: "SAM-ONE-1", amount: "1.00" }])),
    );
    expect(await referral()).toMatchObject({ source: "code", friendCode: "SAM-ONE-1" });
    expect((await referral()).reason).toContain("Referrals:reason.unique_code");
    const code = await getDb().referralFriendCode.findFirstOrThrow({ where: { code: "SAM-ONE-1" } });
    expect(code.usedOrderGid).toBe(ORDER_GID);
  });

  it("queues nothing for an order without code or link, or when the program is off", async () => {
    await setup({ enabled: false });
    await deliver("orders/create", friendOrder());
    expect(await getDb().job.count({ where: { type: "referrals.order" } })).toBe(0);
    await getDb().shop.update({
      where: { id: shopId },
      data: { settings: JSON.stringify({ referrals: { ...DEFAULT_REFERRAL_PROGRAM, enabled: true } }) },
    });
    await deliver(
      "orders/create",
      friendOrder((o) => {
        o.id = 820982911946154509;
        o.admin_graphql_api_id = "gid://shopify/Order/820982911946154509";
        o.discount_codes = [];
      }),
    );
    expect(await getDb().job.count({ where: { type: "referrals.order" } })).toBe(0);
    expect(await getDb().referral.count()).toBe(0);
  });

  it("the one-by-one webhook path queues the order job too", async () => {
    await setup();
    const db = getDb();
    const event = await db.webhookEvent.create({
      data: { shopDomain: SHOP, topic: "orders/create", webhookId: "single-1", payload: friendOrder() },
    });
    await db.$transaction((tx) => processEvent(tx, event.id));
    await drainJobs();
    expect((await referral()).status).toBe("pending");
  });

  it("store credit: credits the advocate's customer account once", async () => {
    await setup({ holdDays: 0, advocateReward: { kind: "store_credit", type: "fixed_amount", value: 1500 } });
    await deliver("orders/create", friendOrder());
    const r = await referral();
    expect(r).toMatchObject({ status: "rewarded", rewardKind: "store_credit", rewardValue: 1500 });
    expect(r.rewardGid).toMatch(/^gid:\/\/shopify\/StoreCreditAccountCreditTransaction\//);
    const credits = sim.store
      .shop(SHOP)
      .storeCreditAccounts.filter((a) => `gid://shopify/Customer/${a.customerId}` === SAM.gid)
      .flatMap((a) => a.transactions);
    expect(credits).toHaveLength(1);
    await issueReferralReward(getDb(), r.id);
    expect(sim.store.shop(SHOP).storeCreditAccounts.flatMap((a) => a.transactions)).toHaveLength(1);
  });

  it("cash: an approved commission line of the advocate's new affiliate record, for Payouts", async () => {
    await setup({ holdDays: 0, advocateReward: { kind: "cash", type: "fixed_amount", value: 2500 } });
    await deliver("orders/create", friendOrder());
    const r = await referral();
    expect(r.status).toBe("rewarded");
    const advocate = await getDb().referralAdvocate.findUniqueOrThrow({ where: { id: advocateId } });
    const affiliate = await getDb().affiliate.findUniqueOrThrow({ where: { id: advocate.affiliateId! } });
    expect(affiliate).toMatchObject({ email: SAM.email, status: "approved", shopId });
    const lines = await getDb().commission.findMany({ where: { affiliateId: affiliate.id } });
    expect(lines).toEqual([
      expect.objectContaining({ kind: "referral", status: "approved", amount: 2500, currency: "USD", orderId: null }),
    ]);
    expect(r.rewardGid).toBe(lines[0]!.id);
    // Run again as if the commit had not been seen: the line's key keeps it one.
    await getDb().referral.update({ where: { id: r.id }, data: { status: "pending" } });
    await issueReferralReward(getDb(), r.id);
    expect(await getDb().commission.count({ where: { affiliateId: affiliate.id } })).toBe(1);
  });
});

describe("refunds, cancellations and blocks", () => {
  it("a full refund within the hold cancels the referral: no reward after the hold", async () => {
    await setup();
    await deliver("orders/create", friendOrder());
    await deliver("refunds/create", fullRefund());
    const r = await referral();
    expect(r.status).toBe("cancelled");
    expect(r.cancelledAt).not.toBeNull();
    expect((await checksOf()).program_rules).toBe("flag checks.adjusted.refunded");
    await endHold();
    await drainJobs();
    expect((await referral()).status).toBe("cancelled");
    expect(codesInStore()).not.toContain(referralRewardCode(r.id));
  });

  it("a partial refund that keeps the order above the minimum keeps it; below the minimum cancels it", async () => {
    await setup({ friendReward: { ...DEFAULT_REFERRAL_PROGRAM.friendReward, minimumOrder: 30000 } });
    await deliver("orders/create", friendOrder());
    const partial = (n: number, id: number) =>
      fixtureWith("refunds_create.json", (x) => {
        x.id = id;
        x.admin_graphql_api_id = `gid://shopify/Refund/${id}`;
        x.refund_line_items = x.refund_line_items.slice(0, n);
      });
    await deliver("refunds/create", partial(1, 1)); // 89.99 off 404.95: 314.96 left
    expect((await referral()).status).toBe("pending");
    await deliver("refunds/create", partial(2, 2)); // 19.99 more: below 300
    expect((await referral()).status).toBe("cancelled");
  });

  it("a cancellation within the hold cancels; after the reward it is only noted", async () => {
    await setup({ holdDays: 0 });
    await deliver("orders/create", friendOrder());
    expect((await referral()).status).toBe("rewarded");
    await deliver(
      "orders/cancelled",
      friendOrder((o) => (o.cancelled_at = "2021-12-31T20:00:00-05:00")),
    );
    expect((await referral()).status).toBe("rewarded");
    expect((await checksOf()).program_rules).toBe("flag checks.adjusted.cancelled_after_reward");
  });

  it("blocks a self-referral, gives it no reward, and the merchant can approve it with a note", async () => {
    await setup({ holdDays: 0 });
    await deliver(
      "orders/create",
      friendOrder((o) => (o.email = "Sam.Shopper+deal@example.net")),
    );
    const r = await referral();
    expect(r).toMatchObject({ status: "blocked", blockedRule: "self_referral" });
    expect((await checksOf()).self_referral).toBe("block checks.self_referral.same_email");
    expect((await checksOf()).similar_email).toBe("block checks.similar_email.alias");
    expect(await rewardJobs()).toHaveLength(0);
    expect(await issueReferralReward(getDb(), r.id)).toBe("not_pending");
    expect(codesInStore()).not.toContain(referralRewardCode(r.id));

    const scoped = shopDb(getDb(), shopId);
    await expect(
      overrideReferral(scoped, { referralId: r.id, decision: "approve", note: " ", by: "owner" }),
    ).rejects.toMatchObject({ code: "validation_failed" });
    await expect(
      overrideReferral(scoped, { referralId: r.id, decision: "block", note: "no", by: "owner" }),
    ).rejects.toMatchObject({ code: "conflict" });
    await overrideReferral(scoped, {
      referralId: r.id,
      decision: "approve",
      note: "Sam's partner, same household",
      by: "owner@raf.example",
    });
    expect(await referral()).toMatchObject({
      status: "pending",
      overrideNote: "Sam's partner, same household",
      overriddenBy: "owner@raf.example",
    });
    await drainJobs();
    expect(await referral()).toMatchObject({ status: "rewarded", rewardCode: referralRewardCode(r.id) });
    expect(codesInStore()).toContain(referralRewardCode(r.id));
    await expect(
      overrideReferral(scoped, { referralId: r.id, decision: "block", note: "too late", by: "owner" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("the merchant blocks a pending referral: no reward after the hold; another shop's id is not found", async () => {
    await setup();
    await deliver("orders/create", friendOrder());
    const r = await referral();
    await overrideReferral(shopDb(getDb(), shopId), {
      referralId: r.id,
      decision: "block",
      note: "Known abuser",
      by: "owner",
    });
    expect(await referral()).toMatchObject({ status: "blocked", overrideNote: "Known abuser" });
    await endHold();
    await drainJobs();
    expect((await referral()).status).toBe("blocked");
    expect(codesInStore()).not.toContain(referralRewardCode(r.id));
    const other = await getDb().shop.create({
      data: {
        domain: "other-raf.myshopify.com",
        name: "Other",
        url: "https://other-raf.myshopify.com",
        adminEmail: "x@y.z",
      },
    });
    await expect(
      overrideReferral(shopDb(getDb(), other.id), { referralId: r.id, decision: "approve", note: "mine", by: "x" }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("flags an existing customer when the program only flags; first-order-only programs block them", async () => {
    await setup({
      fraud: { ...DEFAULT_REFERRAL_PROGRAM.fraud, blockExistingCustomers: false },
      friendReward: { ...DEFAULT_REFERRAL_PROGRAM.friendReward, firstOrderOnly: false },
    });
    await deliver(
      "orders/create",
      friendOrder((o) => (o.customer.orders_count = 3)),
    );
    expect(await referral()).toMatchObject({ status: "pending", blockedRule: null });
    expect((await checksOf()).existing_customer).toBe("flag checks.existing_customer.orders_count");
    const firstOnly = JSON.stringify({ referrals: { ...DEFAULT_REFERRAL_PROGRAM, enabled: true } });
    await getDb().shop.update({ where: { id: shopId }, data: { settings: firstOnly } });
    await getDb().referral.deleteMany();
    await getDb().job.deleteMany({ where: { type: { startsWith: "referrals." } } });
    const again = await getDb().webhookEvent.findFirstOrThrow({ where: { topic: "orders/create" } });
    await getDb().$transaction((tx) => referralJobs.order(tx, { shopId, eventId: again.id }));
    expect(await referral()).toMatchObject({ status: "blocked", blockedRule: "existing_customer" });
    expect(await checksOf()).toMatchObject({
      existing_customer: "block checks.existing_customer.orders_count",
      program_rules: "block checks.program_rules.first_order_only",
    });
  });
});
