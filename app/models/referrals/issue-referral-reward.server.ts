import { createHmac, randomUUID } from "node:crypto";
import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { formatMoneyIn, formatNumberIn } from "../../i18n/format";
import { generateReferralCode } from "../affiliates/affiliate-writes.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { queueEmail } from "../mail/outbox.server";
import { prepareNotification, shopLanguage } from "../notifications/compose-notification.server";
import { decimalAmount } from "../payouts/csv/payout-csv-format";
import { AdminApiError, adminClientFor, type AdminClient } from "../shopify/admin-client.server";
import {
  CODE_DISCOUNT_BY_CODE,
  CUSTOMER_BY_EMAIL,
  DISCOUNT_CODE_BASIC_CREATE,
  STORE_CREDIT_CREDIT,
  STORE_CREDIT_RECENT_CREDITS,
} from "../shopify/admin-operations";
import { toMinorUnits } from "../shopify/money-string";
import { orderStateOf, orderVoidReason, readChecks } from "./adjust-referral.server";
import type { ReferralCheck } from "./checks";
import { rewardInFlight } from "./referral-states";

// The "referrals.reward" job: the hold of a referral is over. If it is still
// pending and its order neither cancelled nor refunded, the advocate gets the
// reward the program promised when the friend ordered (the snapshot on the
// referral): a discount code or store credit in Shopify, or a cash line that
// Payouts pays. Then the referral is rewarded and the advocate's e-mail is
// queued in the same transaction.
//
// An effect job (it waits on Shopify with no transaction open), safe to repeat
// as ADR 028 describes for payouts: a discount code is derived from the
// referral's id and stored on it before Shopify is asked, and a rerun looks
// the code up first; a store credit records the attempt's time first, and a
// rerun looks for that credit among the account's latest before crediting.

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
// Shopify's clock and ours may differ by a little.
const CLOCK_SKEW_MS = 2 * 60_000;
// Marks a store credit asked for but not yet confirmed (rewardGid), with the time asked.
const CREDIT_ASKED = "asked:";

/** The referral's reward code, e.g. "REF-7K3M9QXW2HRT": an HMAC of its id, so no one guesses another's. */
export function referralRewardCode(referralId: string, secret = getConfig().SESSION_SECRET): string {
  const digest = createHmac("sha256", secret).update(`referral-reward-code:${referralId}`).digest();
  let code = "";
  for (let i = 0; i < 12; i++) code += ALPHABET[digest[i]! % ALPHABET.length];
  return `REF-${code}`;
}

const referralSelect = {
  id: true,
  shopId: true,
  status: true,
  orderGid: true,
  orderName: true,
  holdUntil: true,
  rewardKind: true,
  rewardValue: true,
  rewardCurrency: true,
  rewardCode: true,
  rewardGid: true,
  checks: true,
  advocate: { select: { id: true, email: true, firstName: true, customerGid: true, affiliateId: true } },
  shop: {
    select: { id: true, name: true, url: true, domain: true, language: true, currency: true, uninstalledAt: true },
  },
} as const;
type Loaded = NonNullable<Awaited<ReturnType<typeof load>>>;

const load = (db: Db | Tx, referralId: string) =>
  db.referral.findUnique({ where: { id: referralId }, select: referralSelect });

/** The advocate's Shopify customer: linked already, else found by e-mail (then linked). */
async function advocateCustomer(db: Db, client: AdminClient, r: Loaded): Promise<string | null> {
  if (r.advocate.customerGid) return r.advocate.customerGid;
  const email = r.advocate.email.trim();
  const { data } = await client.run(CUSTOMER_BY_EMAIL, { query: `email:"${email.replace(/["\\]/g, "")}"` });
  const match = data.customers.nodes.find(
    (c) => c.defaultEmailAddress?.emailAddress.toLowerCase() === email.toLowerCase(),
  );
  if (!match) return null;
  await db.referralAdvocate.updateMany({
    where: { id: r.advocate.id, shopId: r.shopId, customerGid: null },
    data: { customerGid: match.id },
  });
  return match.id;
}

/** Marks the referral rewarded and queues the advocate's e-mail, once (a rerun finds it rewarded). */
async function settle(db: Db, r: Loaded, fields: { rewardGid: string; rewardCode?: string | null }) {
  // Rendered before the write: SQLite's write lock is not held while a template renders.
  const mail = await prepareRewardEmail(db, r, fields.rewardCode ?? null);
  await db.$transaction(async (tx) => {
    const done = await tx.referral.updateMany({
      where: { id: r.id, status: "pending" },
      data: { status: "rewarded", rewardedAt: new Date(), ...fields },
    });
    if (done.count === 1 && mail) await queueEmail(tx, mail);
  });
}

/** The reward in words the advocate reads: an amount, or a percentage for a percentage code. */
export function rewardValueText(
  r: { rewardKind: string; rewardValue: number; rewardCurrency: string },
  tag: string,
  percent: boolean,
) {
  if (percent) return formatNumberIn(tag, r.rewardValue / 10_000, { style: "percent", maximumFractionDigits: 2 });
  return formatMoneyIn(tag, r.rewardValue, r.rewardCurrency);
}

function prepareRewardEmail(db: Db, r: Loaded, code: string | null) {
  const language = shopLanguage(r.shop.language);
  const percent = r.rewardKind === "discount_code" && isPercentReward(r);
  return prepareNotification(db, {
    shop: r.shop,
    key: "advocate.referral_reward",
    to: r.advocate.email,
    language,
    values: {
      "shop.name": r.shop.name,
      "shop.url": r.shop.url,
      "advocate.first_name": r.advocate.firstName,
      "advocate.email": r.advocate.email,
      "reward.value": rewardValueText(r, language.tag, percent),
      "reward.code": code ?? "",
    },
    dedupeBy: `referral-reward:${r.id}`,
  });
}

// A percentage code's snapshot has basis points in rewardValue and "%" as
// its currency (recordReferralOrder): there is no amount of money to name.
const isPercentReward = (r: { rewardCurrency: string }) => r.rewardCurrency === "%";

async function existingDiscount(client: AdminClient, code: string) {
  const { data } = await client.run(CODE_DISCOUNT_BY_CODE, { code });
  return data.codeDiscountNodeByCode;
}

/** A single-use code for the advocate (for their customer account when they have one). */
async function giveDiscountCode(
  db: Db,
  client: AdminClient,
  r: Loaded,
  amount: { minor: number; currency: string } | null,
) {
  const code = r.rewardCode ?? referralRewardCode(r.id);
  if (r.rewardCode) {
    const found = await existingDiscount(client, code);
    if (found) return settle(db, r, { rewardGid: found.id, rewardCode: code });
  }
  // Stored before Shopify is asked: a rerun after a crash looks this code up.
  await db.referral.updateMany({ where: { id: r.id, status: "pending" }, data: { rewardCode: code } });
  const customerId = await advocateCustomer(db, client, r);
  const value = amount
    ? { discountAmount: { amount: decimalAmount(amount.minor, amount.currency), appliesOnEachItem: false } }
    : { percentage: r.rewardValue / 10_000 };
  const { data } = await client.run(DISCOUNT_CODE_BASIC_CREATE, {
    input: {
      title: `Refer-a-friend reward: ${r.advocate.email} (${r.orderName || r.orderGid})`,
      code,
      startsAt: new Date().toISOString(),
      endsAt: null,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: customerId ? { customers: { add: [customerId] } } : { all: "ALL" },
      customerGets: { value, items: { all: true } },
      combinesWith: { orderDiscounts: false, productDiscounts: true, shippingDiscounts: true },
    },
  });
  const answer = data.discountCodeBasicCreate;
  if (answer.codeDiscountNode && !answer.userErrors.length)
    return settle(db, r, { rewardGid: answer.codeDiscountNode.id, rewardCode: code });
  // "Code must be unique": a crashed run (or a concurrent one) made it; it is this referral's.
  if (answer.userErrors.some((e) => e.code === "TAKEN")) {
    const found = await existingDiscount(client, code);
    if (found) return settle(db, r, { rewardGid: found.id, rewardCode: code });
  }
  throw new Error(`Shopify refused the reward code: ${answer.userErrors.map((e) => e.message).join("; ")}`);
}

/** The credit a crashed run made (same amount, since the recorded attempt, claimed by no other referral). */
async function earlierCredit(db: Db, client: AdminClient, r: Loaded, customerId: string, askedAt: Date) {
  const { data } = await client.run(STORE_CREDIT_RECENT_CREDITS, {
    customerId,
    accountQuery: `currency_code:${r.rewardCurrency}`,
  });
  const credits = data.customer?.storeCreditAccounts.nodes[0]?.transactions.nodes ?? [];
  const since = askedAt.getTime() - CLOCK_SKEW_MS;
  const candidates = credits.filter(
    (c) =>
      c.id &&
      c.amount.currencyCode === r.rewardCurrency &&
      toMinorUnits(c.amount.amount, r.rewardCurrency) === r.rewardValue &&
      new Date(c.createdAt).getTime() >= since,
  );
  if (!candidates.length) return null;
  const ids = candidates.map((c) => c.id!);
  const [referrals, payouts] = await Promise.all([
    db.referral.findMany({ where: { shopId: r.shopId, rewardGid: { in: ids } }, select: { rewardGid: true } }),
    db.payout.findMany({ where: { shopId: r.shopId, reference: { in: ids } }, select: { reference: true } }),
  ]);
  const taken = new Set([...referrals.map((x) => x.rewardGid), ...payouts.map((x) => x.reference)]);
  return candidates.reverse().find((c) => !taken.has(c.id!)) ?? null;
}

async function giveStoreCredit(db: Db, client: AdminClient, r: Loaded) {
  const customerId = await advocateCustomer(db, client, r);
  // Store credit needs a customer account; an advocate without one gets the
  // same amount as a single-use code instead of nothing.
  if (!customerId) return giveDiscountCode(db, client, r, { minor: r.rewardValue, currency: r.rewardCurrency });
  if (r.rewardGid?.startsWith(CREDIT_ASKED)) {
    const done = await earlierCredit(db, client, r, customerId, new Date(r.rewardGid.slice(CREDIT_ASKED.length)));
    if (done) return settle(db, r, { rewardGid: done.id! });
  }
  // Compare-and-set on the marker read: of two runs (a job queued twice),
  // one asks Shopify; the other stops here and a retry finds its credit.
  const claimed = await db.referral.updateMany({
    where: { id: r.id, status: "pending", rewardGid: r.rewardGid },
    data: { rewardGid: `${CREDIT_ASKED}${new Date().toISOString()}` },
  });
  if (claimed.count !== 1) throw new Error(`Referral ${r.id}: another run is giving this reward; trying again later.`);
  const { data } = await client.run(STORE_CREDIT_CREDIT, {
    id: customerId,
    amount: { amount: decimalAmount(r.rewardValue, r.rewardCurrency), currencyCode: r.rewardCurrency },
  });
  const answer = data.storeCreditAccountCredit;
  const transaction = answer.storeCreditAccountTransaction;
  if (!transaction || answer.userErrors.length)
    throw new Error(`Shopify refused the store credit: ${answer.userErrors.map((e) => e.message).join("; ")}`);
  await settle(db, r, { rewardGid: transaction.id });
}

/**
 * Cash: an approved commission line of the advocate's affiliate record, with
 * no order (like a bonus line), which the next payout pays. The affiliate is
 * the shop's affiliate with the advocate's e-mail, else one made now in the
 * shop's default campaign, approved (so Payouts pays it; the advocate sets a
 * payout method in the affiliate portal).
 */
async function giveCash(db: Db, r: Loaded) {
  // Rendered before the write: SQLite's write lock is not held while a template renders.
  const mail = await prepareRewardEmail(db, r, null);
  await db.$transaction(async (tx) => {
    const current = await tx.referral.findUnique({ where: { id: r.id }, select: { status: true } });
    if (current?.status !== "pending") return;
    // The compare-and-set first: of two runs, one records the reward and e-mails.
    const claimed = await tx.referral.updateMany({
      where: { id: r.id, status: "pending" },
      data: { status: "rewarded", rewardedAt: new Date() },
    });
    if (claimed.count !== 1) return;
    const affiliateId = await advocateAffiliate(tx, r);
    const now = new Date();
    const line = await tx.commission.upsert({
      where: { bonusKey: `referral:${r.id}` },
      create: {
        id: randomUUID(),
        shopId: r.shopId,
        orderId: null,
        affiliateId,
        level: 1,
        kind: "referral",
        sourceRef: r.id,
        explanation: `Refer-a-friend reward for order ${r.orderName || r.orderGid}`,
        amount: r.rewardValue,
        currency: r.rewardCurrency,
        status: "approved",
        bonusKey: `referral:${r.id}`,
        createdAt: now,
        updatedAt: now,
      },
      update: {},
      select: { id: true },
    });
    await tx.referral.update({ where: { id: r.id }, data: { rewardedAt: now, rewardGid: line.id } });
    if (mail) await queueEmail(tx, mail);
  });
}

async function advocateAffiliate(tx: Tx, r: Loaded): Promise<string> {
  if (r.advocate.affiliateId) {
    const linked = await tx.affiliate.findFirst({ where: { id: r.advocate.affiliateId, shopId: r.shopId } });
    if (linked) return linked.id;
  }
  const email = r.advocate.email.trim().toLowerCase();
  let affiliate = await tx.affiliate.findFirst({ where: { shopId: r.shopId, email }, select: { id: true } });
  if (!affiliate) {
    const campaign =
      (await tx.campaign.findFirst({ where: { shopId: r.shopId, isDefault: true }, orderBy: { createdAt: "asc" } })) ??
      (await tx.campaign.findFirst({ where: { shopId: r.shopId }, orderBy: { createdAt: "asc" } }));
    if (!campaign) throw new Error("Cash referral rewards need a campaign to hold the advocate's affiliate record.");
    const firstName = r.advocate.firstName || email.slice(0, email.indexOf("@")) || "Advocate";
    affiliate = await tx.affiliate.create({
      data: {
        shopId: r.shopId,
        campaignId: campaign.id,
        email,
        firstName,
        lastName: "",
        status: "approved",
        referralCode: await generateReferralCode(tx, r.shopId, firstName, ""),
        customerGid: r.advocate.customerGid,
      },
      select: { id: true },
    });
  }
  await tx.referralAdvocate.update({ where: { id: r.advocate.id }, data: { affiliateId: affiliate.id } });
  return affiliate.id;
}

/** Ends a referral whose order no longer earns a reward, noting why in its checks. */
async function cancel(db: Db, r: Loaded, detail: string) {
  const note: ReferralCheck = { rule: "program_rules", outcome: "flag", detail };
  // Guarded by the markers read: a reward on its way is not cancelled under it.
  await db.referral.updateMany({
    where: { id: r.id, status: "pending", rewardCode: r.rewardCode, rewardGid: r.rewardGid },
    data: {
      status: "cancelled",
      cancelledAt: new Date(),
      checks: JSON.stringify([...readChecks(r.checks), note]),
    },
  });
}

/** What an earlier run gave in Shopify (the stored code, or a credit since it asked), recorded; false when nothing. */
async function findGivenReward(db: Db, client: AdminClient, r: Loaded): Promise<boolean> {
  if (r.rewardCode) {
    const found = await existingDiscount(client, r.rewardCode);
    if (found) await settle(db, r, { rewardGid: found.id, rewardCode: r.rewardCode });
    return Boolean(found);
  }
  if (r.rewardGid?.startsWith(CREDIT_ASKED)) {
    const customerId = r.advocate.customerGid;
    const done = customerId
      ? await earlierCredit(db, client, r, customerId, new Date(r.rewardGid.slice(CREDIT_ASKED.length)))
      : null;
    if (done) await settle(db, r, { rewardGid: done.id! });
    return Boolean(done);
  }
  return false;
}

export type RewardOutcome = "rewarded" | "not_pending" | "early" | "cancelled" | "no_store_access";

/** The "referrals.reward" job. */
export async function issueReferralReward(db: Db, referralId: string): Promise<RewardOutcome> {
  const r = await load(db, referralId);
  if (!r || r.status !== "pending" || r.shop.uninstalledAt) return "not_pending";
  if (r.holdUntil.getTime() > Date.now()) {
    // Queued early (an override moved the hold): come back when it ends.
    await enqueueJob(db, "referrals.reward", { referralId: r.id }, { runAt: r.holdUntil });
    return "early";
  }
  const { order, minimumOrder } = await orderStateOf(db, r.shopId, r.orderGid);
  const voided = orderVoidReason(order, minimumOrder);
  if (voided && !rewardInFlight(r)) {
    await cancel(db, r, voided);
    return "cancelled";
  }
  if (r.rewardKind === "cash") {
    await giveCash(db, r);
    return "rewarded";
  }
  const client = await adminClientFor(r.shop.domain);
  // No offline session (yet): a job retry may find one; the error says why.
  if (!client) throw new Error(`No Admin API access for ${r.shop.domain}: the referral reward waits.`);
  try {
    // The order was voided while an earlier run was giving the reward: what
    // Shopify made is recorded; if it made nothing, the referral ends.
    if (voided) return (await findGivenReward(db, client, r)) ? "rewarded" : (await cancel(db, r, voided), "cancelled");
    if (r.rewardKind === "store_credit") await giveStoreCredit(db, client, r);
    else
      await giveDiscountCode(
        db,
        client,
        r,
        isPercentReward(r) ? null : { minor: r.rewardValue, currency: r.rewardCurrency },
      );
  } catch (error) {
    const denied =
      error instanceof AdminApiError &&
      error.errors.some((e) => (e as { extensions?: { code?: string } }).extensions?.code === "ACCESS_DENIED");
    if (denied) return "no_store_access";
    throw error;
  }
  return "rewarded";
}
