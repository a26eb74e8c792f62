// Which X-Forwarded-For entry is the visitor. Every proxy appends the address
// that connected to it, so only the entries appended by proxies we trust
// can be believed; whatever comes before them is the client's to write
// ("1.2.3.4, <real address>" rotates freely). The entry a trusted proxy
// added is counted from the end: `trustedHops` proxies of our own (0 or 1,
// TRUST_PROXY) plus, for the app proxy, Shopify's, which appends the
// storefront visitor's address.

/**
 * The entry `hopsFromEnd` places from the end of X-Forwarded-For (0: the
 * last one), or null when the header has fewer entries.
 */
export function forwardedEntry(header: string | null | undefined, hopsFromEnd: number): string | null {
  if (!header) return null;
  const entries = header
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const entry = entries[entries.length - 1 - hopsFromEnd];
  return entry && entry.length <= 64 ? entry : null;
}
