import { z } from "zod";

// The domain events of a shop, by type, with the payload each carries. They
// are written by emitEvent inside the transaction that made the change and
// fan out after the commit (app/worker/dispatch-event.server.ts) to e-mail
// notifications and outgoing webhooks. Payloads hold ids and the few values a
// message needs at the moment of the event (amounts, statuses); a subscriber
// that needs more reads it by id.
//
// Outgoing webhooks publish these payloads, so a change here is a change of
// the public API: add fields, never rename or remove them.

const id = z.string().min(1).max(200);
const money = z.object({ amount: z.number().int(), currency: z.string().length(3) });

export const EVENT_TYPES = {
  "affiliate.created": z.object({
    affiliateId: id,
    status: z.string(),
    // How the affiliate came: the portal's sign-up, the admin's form, the REST API, a CSV import, a Shopify Flow action.
    source: z.enum(["signup", "admin", "api", "import", "flow"]).optional(),
  }),
  "affiliate.approved": z.object({ affiliateId: id }),
  "affiliate.denied": z.object({ affiliateId: id }),
  "sale.credited": z.object({ orderId: id, affiliateId: id }),
  "commission.created": z.object({ commissionId: id, affiliateId: id, orderId: id, kind: z.string() }).merge(money),
  "commission.updated": z
    .object({ commissionId: id, affiliateId: id, orderId: id, kind: z.string(), status: z.string() })
    .merge(money),
  "payout.created": z.object({ payoutId: id, affiliateId: id, method: z.string() }).merge(money),
  "payout.paid": z
    .object({
      payoutId: id,
      affiliateId: id,
      method: z.string(),
      // Set when PayPal paid a payout the app had counted failed or cancelled
      // (reconcile-payout.server.ts): the status it came from, and what was
      // paid twice (taken back from the next payout).
      previousStatus: z.enum(["failed", "cancelled"]).optional(),
      overpaid: z.number().int().optional(),
    })
    .merge(money),
  "payout.failed": z.object({ payoutId: id, affiliateId: id, method: z.string(), reason: z.string() }).merge(money),
  "referral.created": z.object({ referralId: id }),
  /** The merchant approved a bonus line a bonus rule earned (a Commission of kind "bonus", no order). */
  "bonus.approved": z.object({ commissionId: id, affiliateId: id, bonusRuleId: id }).merge(money),
  /** An affiliate claimed a missing order (models/claims): the merchant is told. */
  "claim.filed": z.object({ claimId: id, affiliateId: id }),
  /** The merchant approved or declined an affiliate's claim: the affiliate is told. */
  "claim.decided": z.object({ claimId: id, affiliateId: id, decision: z.enum(["approved", "declined"]) }),
  /** The auto-tier job moved an affiliate to another campaign (docs/decisions/027). */
  "affiliate.tier_changed": z.object({
    affiliateId: id,
    fromCampaignId: id,
    toCampaignId: id,
    direction: z.enum(["up", "down"]),
    /** In English (outgoing webhooks); screens render the move's stored key and values. */
    reason: z.string(),
    /** The run that made the move (its undo moves the affiliate back). */
    runId: id.optional(),
  }),
  /** Leak watch (ADR 051): an affiliate's code looks leaked; the commissions of `orders` orders are held. */
  "leak.flagged": z.object({
    flagId: id,
    affiliateId: id,
    code: z.string(),
    orders: z.number().int(),
    /** Sales:leaks.reasons.{reasonKey}, worded by the reader (ADR 043). */
    reasonKey: z.string(),
  }),
  /** The merchant rotated a flagged code (newCode replaces code) or released the hold. */
  "leak.rotated": z.object({ flagId: id, affiliateId: id, code: z.string(), newCode: z.string() }),
  "leak.released": z.object({ flagId: id, affiliateId: id, code: z.string() }),
} satisfies Record<string, z.ZodTypeAny>;

export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_TYPES)[T]>;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** An event as a subscriber receives it. */
export interface DomainEventRecord<T extends EventType = EventType> {
  id: string;
  shopId: string;
  type: T;
  data: EventData<T>;
  createdAt: Date;
}

/** Every event, discriminated by its type: checking `type` narrows `data` to that type's payload. */
export type DomainEvent = { [T in EventType]: DomainEventRecord<T> }[EventType];

/** A stored event row read back: its payload parsed by its type's schema (null: a type this build does not know). */
export function readEvent(row: {
  id: string;
  shopId: string;
  type: string;
  data: string;
  createdAt: Date;
}): DomainEvent | null {
  if (!isEventType(row.type)) return null;
  const data: unknown = EVENT_TYPES[row.type].parse(JSON.parse(row.data));
  // The schema of row.type parsed data, so the pair is one member of the
  // union; TypeScript cannot follow a value-level lookup to that member.
  return { id: row.id, shopId: row.shopId, type: row.type, data, createdAt: row.createdAt } as DomainEvent;
}
