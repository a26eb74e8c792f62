import { currencyExponent } from "../../lib/money";
import type { ReferralProgram } from "./program-settings";

// The fraud checks of a referral: one pure function per rule, each returning
// what it found as an i18n key of the Referrals namespace (with its values),
// which is stored in Referral.checks and shown on the referral's page with
// t(detail, values). The order job gathers the facts (referral-facts in
// process-referral-order.server.ts); nothing here reads the database.

export type CheckOutcome = "pass" | "flag" | "block";
export type CheckRule =
  "self_referral" | "existing_customer" | "burst" | "similar_email" | "coupon_site" | "program_rules";

export interface ReferralCheck {
  rule: CheckRule;
  outcome: CheckOutcome;
  /** An i18n key in Referrals, e.g. "checks.self_referral.same_email". */
  detail: string;
  values?: Record<string, string | number>;
}

export interface CheckFacts {
  program: Pick<ReferralProgram, "friendReward" | "fraud">;
  friend: {
    /** As typed at checkout (lower case), and its key (email-key.ts). */
    email: string | null;
    emailKey: string | null;
    customerGid: string | null;
    /** Normalized shipping address (addressKey), null when the order ships nowhere. */
    address: string | null;
    /** Shopify's customer.orders_count on the order (this order included), when sent. */
    ordersCount: number | null;
    /** An earlier order of this customer (by customer id or e-mail) is in the app's records. */
    orderedBefore: boolean;
  };
  advocate: {
    email: string;
    emailKey: string;
    customerGid: string | null;
    /** Shipping addresses of the advocate's own orders (addressKey), as far as the app knows them. */
    addresses: string[];
  };
  order: { subtotal: number; currency: string; source: "code" | "link" };
  /** Visits and referrals from the friend's IP (hash) / device within the burst window, this order included. */
  burst: { sameIp: number; sameDevice: number };
  /** This advocate's referrals in the last 30 days (this one included) and share-link visits in the same days. */
  reach: { referrals30d: number; visits30d: number };
}

const check = (
  rule: CheckRule,
  outcome: CheckOutcome,
  detail: string,
  values?: Record<string, string | number>,
): ReferralCheck => (values ? { rule, outcome, detail, values } : { rule, outcome, detail });

/** Street, postcode and country, lower case, letters and digits only: "12 Elm St." and "12 elm st" are one place. */
export function addressKey(
  address: { address1?: string | null; zip?: string | null; country_code?: string | null } | null | undefined,
): string | null {
  if (!address) return null;
  const clean = (v: string | null | undefined) => (v ?? "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const street = clean(address.address1);
  if (!street) return null;
  return `${street}|${clean(address.zip)}|${clean(address.country_code)}`;
}

/** The advocate ordering through their own code or link: same person by e-mail key, customer or address. */
export function selfReferral(f: CheckFacts): ReferralCheck {
  const { friend, advocate } = f;
  if (friend.emailKey && friend.emailKey === advocate.emailKey)
    return check("self_referral", "block", "checks.self_referral.same_email");
  if (friend.customerGid && friend.customerGid === advocate.customerGid)
    return check("self_referral", "block", "checks.self_referral.same_customer");
  if (friend.address && advocate.addresses.includes(friend.address))
    return check("self_referral", "block", "checks.self_referral.same_address");
  return check("self_referral", "pass", "checks.self_referral.pass");
}

/** A friend who has ordered before is no new customer: blocked or only flagged, as the program says. */
export function existingCustomer(f: CheckFacts): ReferralCheck {
  const outcome = f.program.fraud.blockExistingCustomers ? "block" : "flag";
  if (f.friend.ordersCount !== null && f.friend.ordersCount > 1)
    return check("existing_customer", outcome, "checks.existing_customer.orders_count", {
      count: f.friend.ordersCount - 1,
    });
  if (f.friend.orderedBefore) return check("existing_customer", outcome, "checks.existing_customer.earlier_order");
  return check("existing_customer", "pass", "checks.existing_customer.pass");
}

/** Many visits or referrals from one IP address or device within the window: one person making friends up. */
export function burst(f: CheckFacts): ReferralCheck {
  const { burstThreshold: threshold, burstMinutes: minutes } = f.program.fraud;
  if (f.burst.sameIp > threshold)
    return check("burst", "block", "checks.burst.same_ip", { count: f.burst.sameIp, minutes, threshold });
  if (f.burst.sameDevice > threshold)
    return check("burst", "block", "checks.burst.same_device", { count: f.burst.sameDevice, minutes, threshold });
  return check("burst", "pass", "checks.burst.pass", { threshold, minutes });
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      best = Math.min(best, row[j]!);
    }
    if (best > max) return max + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The friend's address is the advocate's in another spelling: the same key
 * typed differently (plus-tag, Gmail dots) blocks; one letter apart in the
 * name before the @ on the same domain only flags, since "anna@" and "anne@"
 * may well be two people.
 */
export function similarEmail(f: CheckFacts): ReferralCheck {
  const { friend, advocate } = f;
  if (!friend.email || !friend.emailKey) return check("similar_email", "pass", "checks.similar_email.pass");
  if (friend.emailKey === advocate.emailKey && friend.email !== advocate.email.trim().toLowerCase())
    return check("similar_email", "block", "checks.similar_email.alias", { email: friend.email });
  const [fLocal, fDomain] = splitEmail(friend.emailKey);
  const [aLocal, aDomain] = splitEmail(advocate.emailKey);
  if (fDomain && fDomain === aDomain && fLocal !== aLocal && editDistance(fLocal, aLocal, 1) === 1)
    return check("similar_email", "flag", "checks.similar_email.one_letter", { email: friend.email });
  return check("similar_email", "pass", "checks.similar_email.pass");
}

function splitEmail(key: string): [string, string] {
  const at = key.lastIndexOf("@");
  return at < 0 ? [key, ""] : [key.slice(0, at), key.slice(at + 1)];
}

/** Below this many code uses in 30 days an advocate's reach is never questioned. */
export const REACH_MIN_USES = 10;
/** Code uses more than this many times the advocate's link visits look like a public coupon site. */
export const REACH_FACTOR = 5;

/** The code posted where strangers find it: far more referrals than the advocate's reach. Flag only. */
export function couponSite(f: CheckFacts): ReferralCheck {
  const threshold = f.program.fraud.couponSiteThreshold;
  const { referrals30d: count, visits30d: visits } = f.reach;
  if (count > threshold) return check("coupon_site", "flag", "checks.coupon_site.many_referrals", { count, threshold });
  if (f.order.source === "code" && count >= REACH_MIN_USES && count > REACH_FACTOR * visits)
    return check("coupon_site", "flag", "checks.coupon_site.beyond_reach", { count, visits });
  return check("coupon_site", "pass", "checks.coupon_site.pass");
}

/** The program's own conditions on the friend's order: its minimum, and first orders only. */
export function programRules(f: CheckFacts, formatMoney: (minor: number, currency: string) => string): ReferralCheck {
  const { minimumOrder, firstOrderOnly } = f.program.friendReward;
  if (minimumOrder > 0 && f.order.subtotal < minimumOrder)
    return check("program_rules", "block", "checks.program_rules.minimum_order", {
      subtotal: formatMoney(f.order.subtotal, f.order.currency),
      minimum: formatMoney(minimumOrder, f.order.currency),
    });
  const before = (f.friend.ordersCount !== null && f.friend.ordersCount > 1) || f.friend.orderedBefore;
  if (firstOrderOnly && before) return check("program_rules", "block", "checks.program_rules.first_order_only");
  return check("program_rules", "pass", "checks.program_rules.pass");
}

/** Plain "12.50 USD" (the page formats money itself; a stored value stays readable in any language). */
export function plainMoney(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  const whole = exponent ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return `${sign}${whole} ${currency}`;
}

/** Every rule, in the order shown; blockedRule is the first that blocked (null when none did). */
export function runChecks(
  f: CheckFacts,
  formatMoney: (minor: number, currency: string) => string = plainMoney,
): { checks: ReferralCheck[]; blockedRule: CheckRule | null } {
  const checks = [
    selfReferral(f),
    similarEmail(f),
    existingCustomer(f),
    burst(f),
    couponSite(f),
    programRules(f, formatMoney),
  ];
  return { checks, blockedRule: checks.find((c) => c.outcome === "block")?.rule ?? null };
}
