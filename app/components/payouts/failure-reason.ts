import type { TFunction } from "i18next";
import { translateMessage } from "~/i18n/messages";

// A payout's failure reason, and the history lines the store credit and
// discount code senders write, are stored as codes ("not_a_customer",
// "shopify_refused:<Shopify's message>", "store_credit_requested:12.50 USD"):
// the screens show them in the merchant's language, with the detail after the
// colon (Shopify's own words, an amount, a code) filled in. A message key
// (the PayPal sender's "Payouts:paypal.*" reasons) is translated; any other
// text shows as it is.

const KNOWN = new Set([
  "not_a_customer",
  "no_store_access",
  "shopify_refused",
  "currency_not_shop",
  "store_credit_requested",
  "discount_code_requested",
  "gift_card_currency",
  "gift_card_requested",
]);

export function failureReasonText(t: TFunction, reason: string): string {
  const at = reason.indexOf(":");
  const code = at >= 0 ? reason.slice(0, at) : reason;
  if (!KNOWN.has(code)) return translateMessage(t, reason) ?? reason;
  return t(`Payouts:failure.${code}`, { detail: at >= 0 ? reason.slice(at + 1) : "" });
}
