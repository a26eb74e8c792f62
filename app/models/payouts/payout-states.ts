// The states and methods of a payout (issue 11), which changes are allowed,
// and who may make each one (issue 25, ADR 021). Pure: every writer (the
// screens, the REST API, the paid-CSV import, the senders, the PayPal status
// job and webhooks, auto-pay, the refresh) asks this table, and the write
// itself names the state it expects (a compare-and-set), so a change that
// lost a race changes nothing.
//
// pending     gathers the affiliate's payable lines (one per affiliate and currency)
// processing  sent in a batch (PayPal, store credit, codes, gift cards) or exported, waiting for the answer
// paid        final: its lines are paid
// failed      its lines went back into the balance (a retry makes a new payout)
// cancelled   left unpaid (by the merchant, or its balance fell below the minimum)
//
// A payout in a batch of a sending method (PayPal, store credit, discount
// codes) is held by its sender from the moment the batch exists: only the
// sender's answer settles it. Nobody may mark it paid, failed or cancelled
// by hand, since the money may already be on its way; the one way back from
// failed or cancelled is PayPal reporting that it paid the item after all.

import { stateTable } from "../../lib/state-table";

export const PAYOUT_STATUSES = ["pending", "processing", "paid", "failed", "cancelled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_METHODS = ["manual", "csv", "paypal", "store_credit", "discount_code", "gift_card"] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** The methods whose batch is sent by a job (a sender in senders/index.server.ts); the others wait for "mark paid". */
export const SENDING_METHODS: readonly PayoutMethod[] = ["paypal", "store_credit", "discount_code", "gift_card"];
/** The methods whose payment the merchant makes outside the app and records (by hand, a CSV file). */
export const HAND_METHODS: readonly PayoutMethod[] = ["manual", "csv"];

/**
 * Who changes a payout:
 * - merchant: a user on the payout screens, the REST API, the paid-CSV import
 *   (payments made outside the app, recorded by hand: ADR 021);
 * - sender: the job that sends a batch of a sending method and the PayPal
 *   status job and webhooks that follow it;
 * - system: the app's own bookkeeping (a batch made by auto-pay, a pending
 *   payout cancelled when its balance fell below the minimum).
 */
export type PayoutActorKind = "merchant" | "sender" | "system";

type MethodSet = "any" | "hand" | "sending" | readonly PayoutMethod[];

interface Rule {
  from: PayoutStatus;
  to: PayoutStatus;
  by: readonly PayoutActorKind[];
  methods: MethodSet;
}

const RULES: readonly Rule[] = [
  // Into a batch (the method is chosen then): by the merchant, or auto-pay.
  { from: "pending", to: "processing", by: ["merchant", "system"], methods: "any" },
  // Paid by hand straight from pending (nothing was sent).
  { from: "pending", to: "paid", by: ["merchant"], methods: "hand" },
  { from: "pending", to: "cancelled", by: ["merchant", "system"], methods: "any" },
  // A payment made outside the app: recorded, or taken back, by hand.
  { from: "processing", to: "paid", by: ["merchant"], methods: "hand" },
  { from: "processing", to: "failed", by: ["merchant"], methods: "hand" },
  { from: "processing", to: "cancelled", by: ["merchant"], methods: "hand" },
  // Money the app sends: only its sender's answer settles it.
  { from: "processing", to: "processing", by: ["sender"], methods: "sending" },
  { from: "processing", to: "paid", by: ["sender"], methods: "sending" },
  { from: "processing", to: "failed", by: ["sender"], methods: "sending" },
  // PayPal paid an item the app had counted as failed or cancelled (a late
  // SUCCESS): the money left, so the payout is paid (reconcile-payout.server.ts).
  { from: "failed", to: "paid", by: ["sender"], methods: ["paypal"] },
  { from: "cancelled", to: "paid", by: ["sender"], methods: ["paypal"] },
];

export function isPayoutMethod(value: string): value is PayoutMethod {
  return (PAYOUT_METHODS as readonly string[]).includes(value);
}

export function isSendingMethod(method: PayoutMethod | string): boolean {
  return (SENDING_METHODS as readonly string[]).includes(method);
}

function methodIn(set: MethodSet, method: string): boolean {
  if (set === "any") return true;
  if (set === "hand") return (HAND_METHODS as readonly string[]).includes(method);
  if (set === "sending") return isSendingMethod(method);
  return (set as readonly string[]).includes(method);
}

/** Whether some actor may move a payout from one status to another (the shape of the graph). */
export function canTransition(from: PayoutStatus | string, to: PayoutStatus | string): boolean {
  return RULES.some((r) => r.from === from && r.to === to && r.from !== r.to);
}

/** A payout still on its way with money the app sends: only the sender's answer may settle it. */
export function isHeldBySender(payout: { status: string; method: string }): boolean {
  return payout.status === "processing" && isSendingMethod(payout.method);
}

export type TransitionVerdict =
  | { ok: true }
  /** The sender holds the payout: wait for its answer. */
  | { ok: false; why: "held" }
  /** No one may make this change from this state (or this actor may not). */
  | { ok: false; why: "transition" };

/** May `by` move this payout to `to`? */
export function payoutTransition(
  payout: { status: string; method: string },
  to: PayoutStatus,
  by: PayoutActorKind,
): TransitionVerdict {
  const allowed = RULES.some(
    (r) => r.from === payout.status && r.to === to && r.by.includes(by) && methodIn(r.methods, payout.method),
  );
  if (allowed) return { ok: true };
  if (by === "merchant" && isHeldBySender(payout)) return { ok: false, why: "held" };
  return { ok: false, why: "transition" };
}

/** The states `by` may move a payout of `method` into `to` from: the guard of the write. */
export function fromStatesFor(to: PayoutStatus, by: PayoutActorKind, method: string): PayoutStatus[] {
  return RULES.filter((r) => r.to === to && r.from !== to && r.by.includes(by) && methodIn(r.methods, method)).map(
    (r) => r.from,
  );
}

/** What the payout screen offers a merchant user for this payout, from the same table. */
export function merchantActionsFor(payout: { status: string; method: string }) {
  // A pending payout's method is chosen when it is paid: by hand it is "manual".
  const method = payout.status === "pending" ? "manual" : payout.method;
  const may = (to: PayoutStatus) => payoutTransition({ status: payout.status, method }, to, "merchant").ok;
  return {
    markPaid: may("paid"),
    markFailed: payout.status === "processing" && may("failed"),
    cancel: payout.status === "processing" && may("cancelled"),
    // A new pending payout gathers the lines a failed or cancelled one released.
    retry: payout.status === "failed" || payout.status === "cancelled",
    heldBy: isHeldBySender(payout) ? (payout.method as PayoutMethod) : null,
  };
}

/** The key that keeps one pending payout per affiliate and currency (Payout.openKey). */
export function openKeyOf(affiliateId: string, currency: string): string {
  return `${affiliateId}:${currency}`;
}

// A batch: created → sending → sent → done | failed. A manual or CSV batch
// goes from created straight to done (or failed) once every payout in it is
// settled; a Shopify sender's batch goes created → sending → done.
export const BATCH_STATUSES = ["created", "sending", "sent", "done", "failed"] as const;

const BATCH_TABLE = stateTable(BATCH_STATUSES, {
  created: ["sending", "done", "failed"],
  sending: ["sent", "done", "failed"],
  sent: ["done", "failed"],
  done: [],
  failed: [],
});

export const canBatchTransition = BATCH_TABLE.can;
/** The states a batch may enter `to` from: the guard of the write. */
export const batchFromStates = BATCH_TABLE.fromStates;
