// Reasons and explanations are stored as keys of the merchant's Sales
// namespace (ADR 043). The affiliate's pages read the same sentences from
// Account.Reasons, which every portal language has (Sales has the full-set
// languages only): the key is moved, never the sentence rewritten.
const MERCHANT = "Sales:";
const AFFILIATE = "Account.Reasons:";

/** "Sales:attributionReason.coupon" → "Account.Reasons:attributionReason.coupon"; other keys as they are. */
export function forAffiliate(key: string): string {
  return key.startsWith(MERCHANT) ? AFFILIATE + key.slice(MERCHANT.length) : key;
}
