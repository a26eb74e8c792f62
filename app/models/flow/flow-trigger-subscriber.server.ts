import type { Tx } from "../../db/transaction";
import { englishMessage } from "../../i18n/messages.server";
import type { EventHandler, EventSubscriber } from "../events/event-subscriber";
import type { EventType } from "../events/event-types";
import { eventTriggerKey, shopTakesFlowTriggers, writeFlowTrigger } from "./flow-trigger-queue.server";
import {
  affiliateApprovedPayload,
  commissionApprovedPayload,
  linkLeakPayload,
  payoutFailedPayload,
  payoutPaidPayload,
  referralFraudPayload,
  saleCreditedPayload,
  type FlowPayload,
  type FlowTriggerHandle,
} from "./flow-triggers";

// Shopify Flow's subscriber of event.dispatch: the domain events that are
// Flow triggers, each turned into a FlowTrigger row and its job in the
// dispatch's write (so after the commit of the change, once per event: the
// row is unique per event and handle). The payload is built from what the
// reader sees now; the batch dispatcher does the same for bulk approvals
// (app/worker/dispatch-events-batch.server.ts). The leak watch's flag is an
// event too (leak.flagged, emitted only by the transaction that opened the
// flag), so it reaches Flow here like the others, once per flag.

const AFFILIATE = { id: true, email: true, firstName: true, lastName: true, referralCode: true } as const;

/** Reads what the payload needs; null: nothing to send (the row is gone, or not this trigger). */
type Compose<T extends EventType> = Parameters<EventHandler<T>>[1] extends infer E
  ? (reader: Tx, event: E) => Promise<FlowPayload | null>
  : never;

function trigger<T extends EventType>(handle: FlowTriggerHandle, compose: Compose<T>): EventHandler<T> {
  return async (reader, event) => {
    if (!(await shopTakesFlowTriggers(reader, event.shopId))) return undefined;
    const payload = await compose(reader, event);
    if (!payload) return undefined;
    return (writer) => writeFlowTrigger(writer, event.shopId, handle, eventTriggerKey(event.id, handle), payload);
  };
}

const affiliateOf = (reader: Tx, shopId: string, id: string) =>
  reader.affiliate.findFirst({ where: { id, shopId }, select: { ...AFFILIATE, campaignId: true } });

const approved = trigger<"affiliate.approved">("affiliate-approved", async (reader, event) => {
  const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
  return a ? affiliateApprovedPayload(a) : null;
});

export const flowTriggerSubscriber: EventSubscriber = {
  "affiliate.approved": approved,
  // Approved from the start (an auto-approving campaign, the admin's form, an import, a Flow action).
  "affiliate.created": trigger<"affiliate.created">("affiliate-approved", async (reader, event) => {
    if (event.data.status !== "approved") return null;
    const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
    return a ? affiliateApprovedPayload(a) : null;
  }),
  "sale.credited": trigger<"sale.credited">("sale-credited", async (reader, event) => {
    const [a, order, own] = await Promise.all([
      affiliateOf(reader, event.shopId, event.data.affiliateId),
      reader.order.findFirst({
        where: { id: event.data.orderId, shopId: event.shopId },
        select: { shopifyGid: true, name: true, total: true, currency: true },
      }),
      reader.commission.aggregate({
        where: { shopId: event.shopId, orderId: event.data.orderId, affiliateId: event.data.affiliateId, kind: "sale" },
        _sum: { amount: true },
      }),
    ]);
    return a && order ? saleCreditedPayload(a, order, own._sum.amount ?? 0) : null;
  }),
  "commission.updated": trigger<"commission.updated">("commission-approved", async (reader, event) => {
    if (event.data.status !== "approved") return null;
    const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
    return a ? commissionApprovedPayload(a, event.data) : null;
  }),
  "bonus.approved": trigger<"bonus.approved">("commission-approved", async (reader, event) => {
    const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
    return a ? commissionApprovedPayload(a, { ...event.data, kind: "bonus" }) : null;
  }),
  "payout.paid": trigger<"payout.paid">("payout-paid", async (reader, event) => {
    const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
    return a ? payoutPaidPayload(a, event.data) : null;
  }),
  "payout.failed": trigger<"payout.failed">("payout-failed", async (reader, event) => {
    const a = await affiliateOf(reader, event.shopId, event.data.affiliateId);
    return a ? payoutFailedPayload(a, event.data) : null;
  }),
  "referral.created": trigger<"referral.created">("referral-fraud-flagged", async (reader, event) => {
    const referral = await reader.referral.findFirst({
      where: { id: event.data.referralId, shopId: event.shopId },
      select: {
        id: true,
        orderGid: true,
        orderName: true,
        status: true,
        blockedRule: true,
        advocate: { select: { email: true } },
      },
    });
    if (!referral || referral.status !== "blocked" || !referral.blockedRule) return null;
    return referralFraudPayload({
      id: referral.id,
      orderGid: referral.orderGid,
      orderName: referral.orderName,
      advocateEmail: referral.advocate.email,
      blockedRule: referral.blockedRule,
    });
  }),
  "leak.flagged": trigger<"leak.flagged">("link-leak-flagged", async (reader, event) => {
    const [a, flag] = await Promise.all([
      affiliateOf(reader, event.shopId, event.data.affiliateId),
      reader.leakFlag.findFirst({
        where: { id: event.data.flagId, shopId: event.shopId },
        select: { code: true, reasonKey: true, reasonValues: true },
      }),
    ]);
    if (!a || !flag) return null;
    return linkLeakPayload(a, { code: flag.code, reason: leakReasonInEnglish(flag.reasonKey, flag.reasonValues) });
  }),
};

/** The watch's reason as the merchant's English screen words it (Flow shows payloads as they are, ADR 020). */
function leakReasonInEnglish(key: string, storedValues: string): string {
  let values: Record<string, string | number> = {};
  try {
    values = JSON.parse(storedValues) as Record<string, string | number>;
  } catch {
    // An unreadable row still names its reason.
  }
  return englishMessage({ key: `Sales:leaks.reasons.${key}`, values });
}
