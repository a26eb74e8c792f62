import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf, sqlDate } from "../../db/dialect";
import { chunks } from "../../lib/chunks";

export interface CampaignMove {
  affiliateId: string;
  fromCampaignId: string;
  toCampaignId: string;
}

/**
 * Moves each affiliate from `fromCampaignId` to `toCampaignId` only if they
 * are still on `fromCampaignId` (a compare-and-set per affiliate): one moved
 * meanwhile, by hand or by another run, stays where they are. Answers the ids
 * actually moved. A run and its undo both move this way. Raw SQL for
 * RETURNING, which Prisma's updateMany does not give.
 */
export async function moveAffiliatesIfStill(
  client: Db | Tx,
  shopId: string,
  moves: readonly CampaignMove[],
  now: Date,
  options: { approvedOnly?: boolean } = {},
): Promise<Set<string>> {
  const dialect = dialectOf(client);
  const groups = new Map<string, CampaignMove[]>();
  for (const m of moves) {
    const key = `${m.fromCampaignId}\u0000${m.toCampaignId}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  const moved = new Set<string>();
  for (const group of groups.values()) {
    for (const chunk of chunks(group, 500)) {
      const rows: { id: string }[] = await client.$queryRawUnsafe(
        bind(
          dialect,
          `UPDATE "Affiliate" SET "campaignId" = ?, "updatedAt" = ?
            WHERE "shopId" = ? AND "campaignId" = ?${options.approvedOnly ? ` AND "status" = 'approved'` : ""}
              AND "id" IN (${chunk.map(() => "?").join(", ")}) RETURNING "id"`,
        ),
        chunk[0]!.toCampaignId,
        sqlDate(dialect, now),
        shopId,
        chunk[0]!.fromCampaignId,
        ...chunk.map((m) => m.affiliateId),
      );
      for (const r of rows) moved.add(String(r.id));
    }
  }
  return moved;
}
