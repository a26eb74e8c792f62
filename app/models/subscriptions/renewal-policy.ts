// Whether a subscription's renewal order pays its affiliate, and at which
// rate (ADR 047). Pure: no Prisma. A campaign's renewal policy says how long
// renewals pay (none, a number of renewal orders, a number of months after
// the first order, or for life) and at which rate (the campaign's own terms,
// or a rate of its own).

export const RENEWAL_POLICIES = ["none", "orders", "months", "lifetime"] as const;
export type RenewalPolicyKind = (typeof RENEWAL_POLICIES)[number];
export const RENEWAL_COMMISSION_TYPES = ["percent", "flat_order"] as const;
export type RenewalCommissionType = (typeof RENEWAL_COMMISSION_TYPES)[number];

export interface RenewalPolicy {
  kind: RenewalPolicyKind;
  /** Renewal orders (orders) or months after the first order (months); unused otherwise. */
  limit: number | null;
  /** Null: renewals earn what the campaign pays on any order. */
  rate: { commissionType: RenewalCommissionType; value: number } | null;
}

export type RenewalVerdict =
  { pays: true; rate: RenewalPolicy["rate"] } | { pays: false; why: "none" | "orders" | "months" };

/** `months` calendar months after `from` (the 31st of a shorter month is its last day). */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * Renewal `renewal` (1 = the first order after the one that started the
 * subscription), placed at `placedAt`, of a subscription started at
 * `startedAt`.
 */
export function renewalVerdict(
  policy: RenewalPolicy,
  renewal: number,
  startedAt: Date,
  placedAt: Date,
): RenewalVerdict {
  switch (policy.kind) {
    case "lifetime":
      return { pays: true, rate: policy.rate };
    case "orders":
      return renewal >= 1 && renewal <= (policy.limit ?? 0)
        ? { pays: true, rate: policy.rate }
        : { pays: false, why: "orders" };
    case "months":
      return placedAt.getTime() < addMonths(startedAt, policy.limit ?? 0).getTime()
        ? { pays: true, rate: policy.rate }
        : { pays: false, why: "months" };
    default:
      return { pays: false, why: "none" };
  }
}

/** A campaign's stored renewal columns as a policy (unknown values pay nothing). */
export function renewalPolicyOf(row: {
  renewalPolicy: string;
  renewalLimit: number | null;
  renewalCommissionType: string | null;
  renewalCommissionValue: number | null;
}): RenewalPolicy {
  const kind = (RENEWAL_POLICIES as readonly string[]).includes(row.renewalPolicy)
    ? (row.renewalPolicy as RenewalPolicyKind)
    : "none";
  const type = (RENEWAL_COMMISSION_TYPES as readonly string[]).includes(row.renewalCommissionType ?? "")
    ? (row.renewalCommissionType as RenewalCommissionType)
    : null;
  return {
    kind,
    limit: row.renewalLimit,
    rate:
      type && row.renewalCommissionValue !== null ? { commissionType: type, value: row.renewalCommissionValue } : null,
  };
}

/**
 * Which of a customer's contracts a renewal order belongs to: the only one,
 * or the only one whose first order held every product of the renewal.
 * Null when that does not single one out (the order is then an ordinary one).
 */
export function matchContract<T extends { originProducts: string[] }>(
  contracts: T[],
  renewalProducts: string[],
): T | null {
  if (contracts.length === 1) return contracts[0]!;
  const fits = contracts.filter((c) => renewalProducts.every((p) => c.originProducts.includes(p)));
  return fits.length === 1 ? fits[0]! : null;
}
