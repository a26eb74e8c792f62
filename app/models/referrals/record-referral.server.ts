import { z } from "zod";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { emitEvent } from "../events/emit-event.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { normalizeOrder, orderPayloadSchema, type NormalizedOrder } from "../shopify/order-payload";
import { parseShopifyJson } from "../shopify/safe-json";
import { addressKey, runChecks, type CheckFacts } from "./checks";
import { emailKey } from "./email-key";
import { hashIp } from "./ip-hash.server";
import { readReferralProgram, type ReferralProgram } from "./program-settings";
import { INVITE_DEVICE_ATTRIBUTE, INVITE_TOKEN_ATTRIBUTE } from "./share-link";

// The "referrals.order" job: a stored orders/create|paid webhook that may be
// a referral (the webhook path queued it: a discount code or the share link's
// cart attribute) is tied to its advocate, checked, and stored as a Referral
// with the reward the program gives at this moment, held until holdUntil.
// Runs in the job's transaction; the (shop, order) key makes a second run, or
// a second webhook of the order, change nothing.

const DAY = 86_400_000;
const ORDER_TOPICS = ["orders/create", "orders/paid"];

// The parts only this job reads, beside what the order path reads.
const referralOrderSchema = orderPayloadSchema.extend({
  browser_ip: z.string().nullish(),
  client_details: z.object({ browser_ip: z.string().nullish() }).nullish(),
  shipping_address: z
    .object({ address1: z.string().nullish(), zip: z.string().nullish(), country_code: z.string().nullish() })
    .nullish(),
});
type ReferralOrderPayload = z.infer<typeof referralOrderSchema>;

/** The friend's order as the checks need it (null: the body is not an order). */
export function readReferralOrder(payload: string) {
  let raw: unknown;
  try {
    raw = parseShopifyJson(payload);
  } catch {
    return null;
  }
  const parsed = referralOrderSchema.safeParse(raw);
  if (!parsed.success) return null;
  const body: ReferralOrderPayload = parsed.data;
  return {
    order: normalizeOrder(body),
    rawCodes: body.discount_codes.map((d) => d.code.trim()).filter(Boolean),
    browserIp: body.browser_ip || body.client_details?.browser_ip || null,
    address: addressKey(body.shipping_address),
    ordersCount: body.customer?.orders_count ?? null,
  };
}

type Advocate = {
  id: string;
  email: string;
  emailKey: string;
  customerGid: string | null;
  firstName: string;
  disabledAt: Date | null;
};
const advocateSelect = {
  id: true,
  email: true,
  emailKey: true,
  customerGid: true,
  firstName: true,
  disabledAt: true,
} as const;

type Tie = { advocate: Advocate; source: "code" | "link"; code: string | null; reason: string; uniqueCodeId?: string };

/** Who referred this order: a friend code (shared, then single-use), else the share link's token. */
async function tieToAdvocate(tx: Tx, shopId: string, order: NormalizedOrder, rawCodes: string[]): Promise<Tie | null> {
  const codes = [...new Set([...rawCodes, ...order.discountCodes])];
  if (codes.length) {
    const shared = await tx.referralAdvocate.findFirst({
      where: { shopId, friendCode: { in: codes } },
      select: { ...advocateSelect, friendCode: true },
    });
    if (shared)
      return {
        advocate: shared,
        source: "code",
        code: shared.friendCode,
        reason: msg("Referrals:reason.shared_code", { code: shared.friendCode!, advocate: shared.email }),
      };
    const unique = await tx.referralFriendCode.findFirst({
      where: { shopId, code: { in: codes } },
      select: { id: true, code: true, usedOrderGid: true, advocate: { select: advocateSelect } },
    });
    if (unique && (!unique.usedOrderGid || unique.usedOrderGid === order.gid))
      return {
        advocate: unique.advocate,
        source: "code",
        code: unique.code,
        uniqueCodeId: unique.id,
        reason: msg("Referrals:reason.unique_code", { code: unique.code, advocate: unique.advocate.email }),
      };
  }
  const token = order.attributes[INVITE_TOKEN_ATTRIBUTE]?.trim();
  if (token) {
    const byLink = await tx.referralAdvocate.findFirst({ where: { shopId, token }, select: advocateSelect });
    if (byLink)
      return {
        advocate: byLink,
        source: "link",
        code: null,
        reason: msg("Referrals:reason.link", { advocate: byLink.email }),
      };
  }
  return null;
}

/**
 * The advocate's own shipping addresses: the app keeps no addresses, so they
 * are read from the stored webhooks of the advocate's latest orders (found
 * by customer or e-mail in Order; a few, and only for orders that reached
 * this job).
 */
async function advocateAddresses(tx: Tx, shop: { id: string; domain: string }, advocate: Advocate, exceptGid: string) {
  const keys = [
    advocate.customerGid ? { customerGid: advocate.customerGid } : null,
    { customerEmail: advocate.email.trim().toLowerCase() },
  ].filter((k) => k !== null);
  const orders = await tx.order.findMany({
    where: { shopId: shop.id, OR: keys, shopifyGid: { not: exceptGid } },
    orderBy: { placedAt: "desc" },
    take: 5,
    select: { shopifyGid: true },
  });
  if (!orders.length) return [];
  const events = await tx.webhookEvent.findMany({
    where: {
      shopDomain: shop.domain,
      topic: { in: ORDER_TOPICS },
      // The gid with its closing quote: Order/12 does not match Order/123.
      OR: orders.map((o) => ({ payload: { contains: `"${o.shopifyGid}"` } })),
    },
    take: 10,
    select: { payload: true },
  });
  return events.map((e) => readReferralOrder(e.payload)?.address).filter((a): a is string => Boolean(a));
}

async function gatherFacts(
  tx: Tx,
  shop: { id: string; domain: string },
  program: ReferralProgram,
  read: NonNullable<ReturnType<typeof readReferralOrder>>,
  tie: Tie,
  ipHash: string | null,
  deviceId: string | null,
): Promise<CheckFacts> {
  const { order } = read;
  const customerKeys = [
    order.customerGid ? { customerGid: order.customerGid } : null,
    order.email ? { customerEmail: order.email } : null,
  ].filter((k) => k !== null);
  const earlier = customerKeys.length
    ? await tx.order.findFirst({
        where: { shopId: shop.id, OR: customerKeys, shopifyGid: { not: order.gid }, placedAt: { lt: order.placedAt } },
        select: { id: true },
      })
    : null;
  const since = new Date(order.placedAt.getTime() - program.fraud.burstMinutes * 60_000);
  // Visits and other referrals from the same address or device in the window;
  // the friend's own visit and this order count once each.
  const sameSource = async (where: { ipHash: string } | { deviceId: string }) =>
    Math.max(
      await tx.referralVisit.count({ where: { shopId: shop.id, ...where, createdAt: { gte: since } } }),
      1 +
        (await tx.referral.count({
          where: { shopId: shop.id, ...where, placedAt: { gte: since }, orderGid: { not: order.gid } },
        })),
    );
  const month = new Date(Date.now() - 30 * DAY);
  return {
    program,
    friend: {
      email: order.email,
      emailKey: order.email ? emailKey(order.email) : null,
      customerGid: order.customerGid,
      address: read.address,
      ordersCount: read.ordersCount,
      orderedBefore: Boolean(earlier),
    },
    advocate: {
      email: tie.advocate.email,
      emailKey: tie.advocate.emailKey,
      customerGid: tie.advocate.customerGid,
      addresses: read.address ? await advocateAddresses(tx, shop, tie.advocate, order.gid) : [],
    },
    order: { subtotal: order.subtotal, currency: order.currency, source: tie.source },
    burst: {
      sameIp: ipHash ? await sameSource({ ipHash }) : 0,
      sameDevice: deviceId ? await sameSource({ deviceId }) : 0,
    },
    reach: {
      referrals30d:
        1 +
        (await tx.referral.count({
          where: { advocateId: tie.advocate.id, createdAt: { gte: month }, orderGid: { not: order.gid } },
        })),
      visits30d: await tx.referralVisit.count({ where: { advocateId: tie.advocate.id, createdAt: { gte: month } } }),
    },
  };
}

/** The reward job's unique key: one per referral and hold end. */
export const rewardJobKey = (referralId: string, holdUntil: Date) =>
  `referral-reward:${referralId}:${holdUntil.getTime()}`;

/** Queues the reward at the end of the hold (at once when it is over). */
export async function scheduleReward(tx: Tx, referral: { id: string; holdUntil: Date }) {
  await enqueueJob(
    tx,
    "referrals.reward",
    { referralId: referral.id },
    { runAt: referral.holdUntil, uniqueKey: rewardJobKey(referral.id, referral.holdUntil) },
  );
}

export type RecordOutcome = "recorded" | "exists" | "not_a_referral" | "program_off" | "unreadable";

/** The "referrals.order" job. */
export async function recordReferralOrder(tx: Tx, input: { shopId: string; eventId: string }): Promise<RecordOutcome> {
  const shop = await tx.shop.findUnique({
    where: { id: input.shopId },
    select: { id: true, domain: true, settings: true, currency: true, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt) return "program_off";
  const program = readReferralProgram(shop.settings);
  if (!program.enabled) return "program_off";
  const event = await tx.webhookEvent.findUnique({ where: { id: input.eventId } });
  if (!event || event.shopDomain !== shop.domain || !ORDER_TOPICS.includes(event.topic)) return "unreadable";
  const read = readReferralOrder(event.payload);
  if (!read) return "unreadable";
  const { order } = read;
  const known = await tx.referral.findUnique({
    where: { shopId_orderGid: { shopId: shop.id, orderGid: order.gid } },
    select: { id: true },
  });
  if (known) return "exists";

  const tie = await tieToAdvocate(tx, shop.id, order, read.rawCodes);
  // A withdrawn advocate's code or link credits no one any more.
  if (!tie || tie.advocate.disabledAt) return "not_a_referral";

  const ipHash = hashIp(read.browserIp);
  const deviceId = order.attributes[INVITE_DEVICE_ATTRIBUTE]?.trim().slice(0, 100) || null;
  const facts = await gatherFacts(tx, shop, program, read, tie, ipHash, deviceId);
  const { checks, blockedRule } = runChecks(facts);
  const reward = program.advocateReward;
  const holdUntil = new Date(order.placedAt.getTime() + program.holdDays * DAY);
  const status = order.cancelledAt ? "cancelled" : blockedRule ? "blocked" : "pending";

  const referral = await tx.referral.create({
    data: {
      shopId: shop.id,
      advocateId: tie.advocate.id,
      orderGid: order.gid,
      orderName: order.name,
      friendEmail: order.email,
      friendCustomerGid: order.customerGid,
      source: tie.source,
      reason: tie.reason,
      friendCode: tie.code,
      currency: order.currency,
      orderTotal: order.total,
      status,
      checks: JSON.stringify(checks),
      blockedRule,
      holdUntil,
      rewardKind: reward.kind,
      rewardValue: reward.value,
      // Amounts are in the shop's currency; a percentage code keeps basis
      // points in rewardValue and "%" here (issue-referral-reward.server.ts).
      rewardCurrency: reward.kind === "discount_code" && reward.type === "percentage" ? "%" : shop.currency,
      cancelledAt: order.cancelledAt,
      ipHash,
      deviceId,
      placedAt: order.placedAt,
    },
    select: { id: true, holdUntil: true },
  });
  if (tie.uniqueCodeId)
    await tx.referralFriendCode.updateMany({
      where: { id: tie.uniqueCodeId, usedOrderGid: null },
      data: { usedOrderGid: order.gid },
    });
  await emitEvent(tx, shop.id, "referral.created", { referralId: referral.id });
  if (status === "pending") await scheduleReward(tx, referral);
  return "recorded";
}
