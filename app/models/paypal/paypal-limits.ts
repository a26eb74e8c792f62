// PayPal's limits that shape what the app sends. Pure.

/** PayPal Payouts takes at most 15,000 items in one POST /v1/payments/payouts. */
export const PAYPAL_MAX_ITEMS_PER_REQUEST = 15_000;
