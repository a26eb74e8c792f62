// The states and methods of a payout (issue 11) and which changes are
// allowed. Pure: the domain modules, screens and the API read the same lists.
//
// pending     gathers the affiliate's payable lines (one per affiliate and currency)
// processing  sent in a batch (PayPal, store credit, codes) or exported, waiting for the answer
// paid        final: its lines are paid
// failed      final for this payout: its lines went back into the balance (a retry makes a new payout)
// cancelled   left pending without paying (by the merchant, or its balance fell below the minimum)

export const PAYOUT_STATUSES = ["pending", "processing", "paid", "failed", "cancelled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_METHODS = ["manual", "csv", "paypal", "store_credit", "discount_code"] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** The methods whose batch is sent by a job (a sender in senders/index.server.ts); the others wait for "mark paid". */
export const SENDING_METHODS: readonly PayoutMethod[] = ["paypal", "store_credit", "discount_code"];

const TRANSITIONS: Record<PayoutStatus, readonly PayoutStatus[]> = {
  // Paid by hand straight from pending, or sent; cancelled while not sent.
  pending: ["processing", "paid", "cancelled"],
  // A sent payout ends paid or failed; a CSV/manual batch not yet paid can still be cancelled.
  processing: ["paid", "failed", "cancelled"],
  paid: [],
  failed: [],
  cancelled: [],
};

export function isPayoutStatus(value: string): value is PayoutStatus {
  return (PAYOUT_STATUSES as readonly string[]).includes(value);
}

export function isPayoutMethod(value: string): value is PayoutMethod {
  return (PAYOUT_METHODS as readonly string[]).includes(value);
}

export function canTransition(from: PayoutStatus | string, to: PayoutStatus | string): boolean {
  if (!isPayoutStatus(from) || !isPayoutStatus(to)) return false;
  return TRANSITIONS[from].includes(to);
}

export function isSendingMethod(method: PayoutMethod): boolean {
  return SENDING_METHODS.includes(method);
}

/** A payout still holds its lines (they are not payable elsewhere) in these states. */
export const HOLDS_LINES: readonly PayoutStatus[] = ["pending", "processing", "paid"];

/** The key that keeps one pending payout per affiliate and currency (Payout.openKey). */
export function openKeyOf(affiliateId: string, currency: string): string {
  return `${affiliateId}:${currency}`;
}
