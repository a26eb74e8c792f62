// A friend's e-mail as the referral history shows it: enough to tell two
// friends apart in the list, not enough to write to them. The domain stays
// (it is what the similar-e-mail and coupon-site checks are about).

const MASK = "***";

/** "anna@example.com" → "an***@example.com"; null or blank → "". */
export function maskEmail(email: string | null | undefined): string {
  const value = (email ?? "").trim();
  if (!value) return "";
  const at = value.lastIndexOf("@");
  const local = Array.from(at >= 0 ? value.slice(0, at) : value);
  const domain = at >= 0 ? value.slice(at) : "";
  // Short local parts keep less, so no local part is ever shown whole.
  const keep = local.length > 3 ? 2 : local.length > 1 ? 1 : 0;
  return `${local.slice(0, keep).join("")}${MASK}${domain}`;
}

// The stricter mask: a friend's e-mail as the advocate sees it on their page: enough to
// recognize a friend they invited, not enough to learn an address they did
// not know ("an***@ex***.com").
export function maskEmailForAdvocate(email: string | null | undefined): string {
  const value = (email ?? "").trim();
  const at = value.lastIndexOf("@");
  if (at <= 0) return value ? "***" : "";
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  // At most all but one character: a one-letter part is not shown at all.
  const keep = (s: string, n: number) => `${[...s].slice(0, Math.min(n, [...s].length - 1)).join("")}***`;
  return `${keep(local, 2)}@${keep(host, 2)}${tld}`;
}
