import type { TFunction } from "i18next";

// A payout's failure reason is stored as a code the senders write
// ("not_a_customer", "shopify_refused:<Shopify's message>"): the screens show
// it in the merchant's language, with the detail after the colon (Shopify's
// own words, or a currency) filled in. An unknown code shows as it is.

const KNOWN = new Set(["not_a_customer", "no_store_access", "shopify_refused", "currency_not_shop"]);

export function failureReasonText(t: TFunction, reason: string): string {
  const at = reason.indexOf(":");
  const code = at >= 0 ? reason.slice(0, at) : reason;
  if (!KNOWN.has(code)) return reason;
  return t(`Payouts:failure.${code}`, { detail: at >= 0 ? reason.slice(at + 1) : "" });
}
