import { z } from "zod";

// The payload of every job type, by name. enqueueJob accepts only a payload
// of its job type's shape (a wrong one is a compile error), and the worker
// parses the stored payload with the same schema before the handler runs
// (app/worker/job-registry.server.ts pairs each schema with its handler).

const id = () => z.string().min(1).max(200);

export const JOB_PAYLOADS = {
  /** A stored webhook to process (WebhookEvent id); the topic lets orders be batched. */
  webhook: z.object({ eventId: id(), topic: z.string().max(100).optional() }),
  /** Approves a sale whose approval hold has passed, if it is still pending. */
  "orders.approve": z.object({ orderId: id() }),
  /** Erases an uninstalled shop once its grace period is over. */
  "shop.erase": z.object({ shopDomain: z.string().min(1).max(255) }),
  /** Sends one e-mail of the outbox (OutboxEmail id). */
  "email.send": z.object({ id: id() }),
  /** Brings a shop's dashboard rollup up to date. */
  "dashboard.rollup": z.object({ shopId: id() }),
  /** Every five minutes: queues dashboard.rollup for the shops with activity since their rollup, then the next sweep. */
  "dashboard.rollup-sweep": z.object({ slot: z.number().int().min(0) }),
  /** One slice of a shop's catalogue sync from the Admin API, resuming at a cursor. */
  "catalogue.sync": z.object({
    shopDomain: z.string().min(1).max(255),
    startedAt: z.string().datetime(),
    after: z.string().max(500).nullable(),
    pages: z.number().int().min(0),
  }),
  /**
   * Hands stored domain events (DomainEvent ids) to their subscribers: e-mails, outgoing webhooks.
   * `eventIds`: the events of one bulk write (emit-event.server.ts); `eventId`: one event (emitEvent,
   * and every job queued before bulk writes shared one). `alone`: the batch handler left this event
   * to the one-by-one path (app/worker/dispatch-events-batch.server.ts).
   */
  "event.dispatch": z.union([
    z.object({ eventId: id(), alone: z.boolean().optional() }),
    z.object({ eventIds: z.array(id()).min(1).max(1000) }),
  ]),
  /** One attempt of an outgoing webhook delivery (WebhookDelivery id); `attempt` is its 1-based number. */
  "webhooks.deliver": z.object({ deliveryId: id(), attempt: z.number().int().min(1).max(1000) }),
  /** Sends a payout batch (PayoutBatch id) through its method's sender, after the commit that created it. */
  "payouts.send-batch": z.object({ batchId: id() }),
  /** Reads a sent PayPal batch back and applies each item's state; check number `round` (the wait doubles). */
  "paypal.follow-batch": z.object({ batchId: id(), round: z.number().int().min(0).max(1000) }),
  /** Gathers a shop's approved lines into pending payouts after a balance changed (payout-refresh-job.server.ts). */
  "payouts.refresh": z.object({ shopId: id() }),
  /** Reminds the affiliates whose pending payouts wait for a tax form (tax-form-reminder.server.ts). */
  "tax-forms.remind": z.object({ shopId: id() }),
  /** A shop's scheduled auto-pay run (Settings › Payment), at the time the settings name. */
  "payouts.auto-pay": z.object({ shopId: id(), runAt: z.string().datetime() }),
  /** Refer-a-friend: ties a stored orders/create|paid webhook (WebhookEvent id) to an advocate, if it is a referral. */
  "referrals.order": z.object({ shopId: id(), eventId: id() }),
  /** Refer-a-friend: a refund or cancellation of an order that may be a referral (cancels its reward within the hold). */
  "referrals.order-adjusted": z.object({ shopId: id(), orderGid: id() }),
  /** Refer-a-friend: creates an advocate's shared friend code in Shopify (idempotent). */
  "referrals.friend-code": z.object({ advocateId: id() }),
  /** Refer-a-friend: the hold of a referral is over; gives the advocate's reward if it still stands. */
  "referrals.reward": z.object({ referralId: id() }),
  /** Refer-a-friend: deletes the friend codes in Shopify of a withdrawn program (no advocateId) or advocate. */
  "referrals.withdraw": z.object({ shopId: id(), advocateId: id().optional() }),
  /** Evaluates a shop's bonus rules over the periods that have closed, then queues the next run. */
  "bonus.evaluate": z.object({ shopId: id() }),
  /** Moves a shop's affiliates between its auto-tier campaigns, then queues the next daily run. */
  "tier.evaluate": z.object({ shopId: id() }),
  /** Processes an affiliates CSV import (AffiliateImport id) in chunks, resuming at its `processed` row. */
  "affiliates.import": z.object({ shopId: id(), importId: id() }),
  /** Processes a paid-payouts CSV import (PaidPayoutImport id) in chunks, resuming at its `processed` row. */
  "payouts.paid-import": z.object({ shopId: id(), importId: id() }),
  /** Leak watch: looks at an affiliate's recent code-only orders and raises a flag if their code leaked. */
  "leaks.check": z.object({ shopId: id(), affiliateId: id(), code: z.string().min(1).max(255) }),
  /** A Web Pixel report stored while its order was being recorded: the order gets the pixel's signal (ADR 056). */
  "pixel.reconcile": z.object({ shopId: id(), checkoutToken: z.string().min(1).max(255) }),
  /** Leak watch: a rotated flag's new code created in Shopify and the old one deactivated (idempotent). */
  "leaks.rotate": z.object({ flagId: id() }),
  /** Creates an approved affiliate's coupon in Shopify per the campaign's coupon settings. */
  "coupons.create": z.object({ affiliateId: id() }),
  /** Creates in Shopify the coupon codes typed for an affiliate (admin page, API, import). */
  "coupons.push": z.object({ affiliateId: id() }),
  /** A shop's daily e-mails at 08:00 its time: payout-method reminders and the merchant digest, then the next run. */
  "notifications.daily": z.object({ shopId: id(), runAt: z.string().datetime() }),
  /** The shop's web pixel: created, or pointed at this deployment's app URL (shop/web-pixel.server.ts). */
  "pixel.sync": z.object({ shopId: id() }),
  /** app/scopes_update: the scopes the shop granted, read back from Shopify onto its offline session. */
  "scopes.refresh": z.object({ shopDomain: z.string().min(1).max(255) }),
  /** Sends one queued Shopify Flow trigger (FlowTrigger id) with flowTriggerReceive (flow/send-flow-trigger.server.ts). */
  "flow.trigger": z.object({ triggerId: id() }),
  /** The daily retention run (app/models/ops/retention.server.ts) of the UTC day of `runAt`. */
  "retention.prune": z.object({ runAt: z.string().datetime() }),
} satisfies Record<string, z.ZodTypeAny>;

export type JobName = keyof typeof JOB_PAYLOADS;
/** What a caller hands enqueueJob for a job type. */
export type JobPayload<N extends JobName> = z.input<(typeof JOB_PAYLOADS)[N]>;
