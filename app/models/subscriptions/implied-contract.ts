import { createHash } from "node:crypto";

// Renewals placed by another subscription app (ADR 047, addendum). Shopify
// sends subscription_contracts/* only to the app that owns the contract
// (read_own_subscription_contracts), so a renewal order of a contract made
// by another app names no contract this app knows. Such an order is taken as
// a renewal of an implied contract: the customer's subscription to what the
// order holds, started by the customer's first order that held it. Pure: no
// Prisma.

/** What an implied contract is keyed by, besides the customer: its selling plans, or its products. */
export interface RenewalLines {
  productGids: string[];
  /** Shopify's line_items[].selling_plan_id (order webhooks of API 2026-10 on); empty before. */
  sellingPlanGids: string[];
}

const IMPLIED_PREFIX = "implied|";

const sorted = (values: string[]) => [...new Set(values.filter(Boolean))].sort();

/**
 * The key an implied contract's renewals are stored and counted under
 * (Order.subscriptionContractGid): the customer and the renewal's selling
 * plans when the payload carries them, else its products, hashed, so the key
 * keeps its size and names no customer once customers/redact has erased the
 * orders' customer. Null when the order names no customer or nothing to
 * follow.
 */
export function impliedContractKey(customerGid: string | null, lines: RenewalLines): string | null {
  if (!customerGid) return null;
  const plans = sorted(lines.sellingPlanGids);
  const products = sorted(lines.productGids);
  const part = plans.length ? plans.join(",") : products.join(",");
  if (!part) return null;
  return `${IMPLIED_PREFIX}${createHash("sha256").update(`${customerGid}|${part}`).digest("hex")}`;
}

/** Whether an Order.subscriptionContractGid names an implied contract (not a Shopify contract GID). */
export const isImpliedContract = (key: string | null | undefined) => Boolean(key?.startsWith(IMPLIED_PREFIX));

export interface OriginCandidate extends RenewalLines {
  gid: string;
  placedAt: Date;
  affiliateId: string | null;
}

/**
 * The order an implied subscription started from: the customer's earliest
 * order before the renewal that held every product of it (and, when both
 * carry selling plans, every selling plan of it). Candidates are the
 * customer's orders that are not renewals themselves nor the first order of
 * a contract the app knows. Null when none held them.
 */
export function impliedOrigin<T extends OriginCandidate>(
  candidates: T[],
  renewal: RenewalLines & { placedAt: Date },
): T | null {
  const products = sorted(renewal.productGids);
  const plans = sorted(renewal.sellingPlanGids);
  const fits = candidates.filter((c) => {
    if (c.placedAt.getTime() >= renewal.placedAt.getTime()) return false;
    if (!products.every((p) => c.productGids.includes(p))) return false;
    return plans.length === 0 || c.sellingPlanGids.length === 0 || plans.every((p) => c.sellingPlanGids.includes(p));
  });
  fits.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime() || a.gid.localeCompare(b.gid));
  return fits[0] ?? null;
}
