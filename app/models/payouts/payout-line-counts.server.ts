import type { ShopDb } from "../../db/shop-db.server";
import { chunks } from "../../lib/chunks";
import { LOOSE } from "./payable-balance";
import { openKeyOf } from "./payout-states";

export interface CountedPayout {
  id: string;
  status: string;
  affiliateId: string;
  currency: string;
}

/**
 * How many lines each of these payouts holds, counted for them alone; for a
 * pending payout, the loose lines of its affiliate in its currency, which it
 * takes as it leaves pending (ADR 058). Prisma's `_count: { commissions }` on
 * a list grouped every line of every shop first (a LEFT JOIN on a GROUP BY
 * of the whole table), on each load.
 */
export async function payoutLineCounts(db: ShopDb, payouts: readonly CountedPayout[]): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  const pending = payouts.filter((p) => p.status === "pending");
  const other = payouts.filter((p) => p.status !== "pending").map((p) => p.id);
  // In groups: a batch made by the API can hold more payouts than a statement may bind.
  for (const part of chunks(other, 500)) {
    const counts = await db.commission.groupBy({
      by: ["payoutId"],
      where: { shopId: db.$shopId, payoutId: { in: part } },
      _count: { _all: true },
    });
    for (const c of counts) lines.set(c.payoutId!, c._count._all);
  }
  for (const part of chunks(pending, 500)) {
    const counts = await db.commission.groupBy({
      by: ["affiliateId", "currency"],
      where: { shopId: db.$shopId, ...LOOSE, affiliateId: { in: [...new Set(part.map((p) => p.affiliateId))] } },
      _count: { _all: true },
    });
    const byKey = new Map(counts.map((c) => [openKeyOf(c.affiliateId, c.currency), c._count._all]));
    for (const p of part) lines.set(p.id, byKey.get(openKeyOf(p.affiliateId, p.currency)) ?? 0);
  }
  return lines;
}

/** Prisma filter of the lines a payout holds: its own, or a pending payout's loose lines (ADR 058). */
export function linesOfPayout(shopId: string, payout: CountedPayout) {
  return payout.status === "pending"
    ? { shopId, affiliateId: payout.affiliateId, currency: payout.currency, ...LOOSE }
    : { shopId, payoutId: payout.id };
}
