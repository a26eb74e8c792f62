import type { ShopDb } from "../../db/shop-db.server";
import { chunks } from "../../lib/chunks";

/**
 * How many lines each of these payouts holds, counted for them alone.
 * Prisma's `_count: { commissions }` on a list grouped every line of every
 * shop first (a LEFT JOIN on a GROUP BY of the whole table), on each load.
 */
export async function payoutLineCounts(db: ShopDb, payoutIds: string[]): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  // In groups: a batch made by the API can hold more payouts than a statement may bind.
  for (const part of chunks(payoutIds, 500)) {
    const counts = await db.commission.groupBy({
      by: ["payoutId"],
      where: { shopId: db.$shopId, payoutId: { in: part } },
      _count: { _all: true },
    });
    for (const c of counts) lines.set(c.payoutId!, c._count._all);
  }
  return lines;
}
