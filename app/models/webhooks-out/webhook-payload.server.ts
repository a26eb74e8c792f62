import { englishExplanation } from "../commissions/explanation-english.server";
import type { Tx } from "../../db/transaction";
import { toWireCase } from "../../lib/wire-case";
import { referralInclude, serializeReferral } from "../referrals/referral-out.server";
import type { z } from "zod";
import type { DomainEvent } from "../events/event-types";
import type {
  webhookAffiliateSchema,
  webhookCommissionSchema,
  webhookPayoutSchema,
  webhookSaleSchema,
} from "./webhook-schemas";

// The body of a webhook, Standard Webhooks' convention: {type, timestamp,
// data}. `data` is the event's own payload (ids and the values of the moment)
// plus the objects it names, as they were when the event was dispatched, so a
// receiver can act without calling back. Built in the domain's camelCase and
// put on the wire in the public API's one case, snake_case (toWireCase,
// docs/decisions/037); the objects below are part of the public API (add,
// never rename: docs/decisions/024).

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function affiliateObject(tx: Tx, id: string): Promise<z.infer<typeof webhookAffiliateSchema> | null> {
  const a = await tx.affiliate.findUnique({ where: { id } });
  if (!a) return null;
  return {
    id: a.id,
    email: a.email,
    firstName: a.firstName,
    lastName: a.lastName,
    status: a.status,
    referralCode: a.referralCode,
    campaignId: a.campaignId,
    parentId: a.parentId,
    website: a.website,
    createdAt: a.createdAt.toISOString(),
  };
}

async function saleObject(tx: Tx, id: string): Promise<z.infer<typeof webhookSaleSchema> | null> {
  const o = await tx.order.findUnique({ where: { id } });
  if (!o) return null;
  return {
    id: o.id,
    shopifyGid: o.shopifyGid,
    name: o.name,
    currency: o.currency,
    subtotal: o.subtotal,
    total: o.total,
    status: o.status,
    affiliateId: o.affiliateId,
    attributionSource: o.attributionSource,
    refundedAmount: o.refundedAmount,
    isNewCustomer: o.isNewCustomer,
    createdAt: o.createdAt.toISOString(),
  };
}

async function commissionObject(tx: Tx, id: string): Promise<z.infer<typeof webhookCommissionSchema> | null> {
  const c = await tx.commission.findUnique({ where: { id } });
  if (!c) return null;
  return {
    id: c.id,
    orderId: c.orderId,
    affiliateId: c.affiliateId,
    level: c.level,
    kind: c.kind,
    amount: c.amount,
    currency: c.currency,
    status: c.status,
    explanation: englishExplanation(c.explanation, c.currency),
    payoutId: c.payoutId,
    createdAt: c.createdAt.toISOString(),
  };
}

async function payoutObject(tx: Tx, id: string): Promise<z.infer<typeof webhookPayoutSchema> | null> {
  const p = await tx.payout.findUnique({ where: { id } });
  if (!p) return null;
  return {
    id: p.id,
    affiliateId: p.affiliateId,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    method: p.method,
    reference: p.reference,
    failureReason: p.failureReason,
    sentAt: iso(p.sentAt),
    paidAt: iso(p.paidAt),
    createdAt: p.createdAt.toISOString(),
  };
}

async function referralObject(tx: Tx, id: string) {
  const row = await tx.referral.findUnique({ where: { id }, include: referralInclude });
  return row ? serializeReferral(row) : null;
}

type NamedObjects = {
  affiliateId?: string;
  orderId?: string;
  commissionId?: string;
  payoutId?: string;
  referralId?: string;
};

export async function buildWebhookBody(tx: Tx, event: DomainEvent) {
  const data: Record<string, unknown> = { ...event.data };
  const { affiliateId, orderId, commissionId, payoutId, referralId }: NamedObjects = event.data;
  if (affiliateId) data.affiliate = await affiliateObject(tx, affiliateId);
  if (orderId) data.sale = await saleObject(tx, orderId);
  if (commissionId) data.commission = await commissionObject(tx, commissionId);
  if (payoutId) data.payout = await payoutObject(tx, payoutId);
  if (referralId) data.referral = await referralObject(tx, referralId);
  return { type: event.type, timestamp: event.createdAt.toISOString(), data: toWireCase(data) };
}
