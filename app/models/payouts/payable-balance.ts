// The one owner of the payable-balance rule: which commission lines an
// affiliate is owed and how they add up. Every screen, export and the API
// that shows a balance uses this module (the Prisma filters and the SQL
// fragment below, or balanceOf for lines already in memory).
//
// - Payable: approved lines not yet sent: in no payout (a pending payout
//   holds none: it shows the loose balance and takes the lines as it leaves
//   pending, ADR 058). Refund and cancellation lines are negative and approved, so they
//   reduce what the next payout pays (a balance can be negative).
// - Loose: the payable lines a payout may take; the refresh
//   (refresh-pending-payouts.server.ts) sums them per affiliate and currency.
//   A line of an order an open leak flag holds (Order.leakHoldId, ADR 051)
//   is not taken until the flag is answered.
// - Awaiting approval: pending lines; they become payable when approved.
// - Money is never added across currencies: a shop that sold in several
//   currencies owes one total per currency.

export interface MoneyTotal {
  currency: string;
  amount: number;
}

export interface Balance {
  /** What the next payout would pay, per currency. */
  payable: MoneyTotal[];
  /** What is still waiting for approval, per currency. */
  pending: MoneyTotal[];
}
/** Prisma filter of the payable lines. */
export const PAYABLE = { status: "approved", OR: [{ payoutId: null }, { payout: { status: "pending" } }] };
/** Prisma filter of the loose lines (LOOSE_SQL): what a pending payout shows and takes as it leaves pending. */
export const LOOSE = {
  status: "approved",
  payoutId: null,
  OR: [{ orderId: null }, { order: { leakHoldId: null } }],
};
/** Prisma filter of the lines awaiting approval. */
export const AWAITING_APPROVAL = { status: "pending" } as const;
/** The orders an open leak flag holds (few; served by the Order.leakHoldId index). */
const HELD_ORDERS_SQL = `SELECT "id" FROM "Order" WHERE "leakHoldId" IS NOT NULL`;
/** SQL condition of the loose lines (on table "Commission"), for raw queries. */
export const LOOSE_SQL = looseSqlOf();
/** The same condition with its columns qualified by a table name (for joins). */
export function looseSqlOf(table?: string) {
  const col = (name: string) => (table ? `"${table}"."${name}"` : `"${name}"`);
  return `${col("status")} = 'approved' AND ${col("payoutId")} IS NULL AND (${col("orderId")} IS NULL OR ${col("orderId")} NOT IN (${HELD_ORDERS_SQL}))`;
}
/** SQL condition of the payable lines (on table "Commission", unaliased), for raw queries. */
export const PAYABLE_SQL = `"status" = 'approved' AND ("payoutId" IS NULL OR EXISTS (SELECT 1 FROM "Payout" po WHERE po."id" = "Commission"."payoutId" AND po."status" = 'pending'))`;

export interface CommissionLine {
  status: string;
  payoutId: string | null;
  /** The status of the payout holding the line, when it is in one. */
  payoutStatus?: string | null;
  currency: string;
  amount: number;
}

export function isPayable(line: Pick<CommissionLine, "status" | "payoutId" | "payoutStatus">): boolean {
  return line.status === "approved" && (line.payoutId === null || line.payoutStatus === "pending");
}

export function isAwaitingApproval(line: Pick<CommissionLine, "status">): boolean {
  return line.status === AWAITING_APPROVAL.status;
}

/** One total per currency (in currency order); amounts of different currencies are never added. */
export function totalsByCurrency(rows: readonly { currency: string; amount: number }[]): MoneyTotal[] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.amount);
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, amount]) => ({ currency, amount }));
}

/** The balance of a set of commission lines. */
export function balanceOf(lines: readonly CommissionLine[]): Balance {
  return {
    payable: totalsByCurrency(lines.filter(isPayable)),
    pending: totalsByCurrency(lines.filter(isAwaitingApproval)),
  };
}
