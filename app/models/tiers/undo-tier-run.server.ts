import type { Tx } from "../../db/transaction";
import { bind, dialectOf, sqlDate } from "../../db/dialect";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";

// Undoing an auto-tier run: each affiliate of the run goes back to the
// campaign they came from, but only if they are still where the run put
// them (a compare-and-set per affiliate): one moved since, by hand or by a
// later run, stays where they are and is reported. The undo e-mails nobody:
// a "you moved down" message right after "you moved up" would announce a
// demotion that is really the merchant taking back a mistake.

export type UndoSkipReason = "moved_since";

export interface UndoReport {
  restored: number;
  skipped: { affiliateId: string; name: string; reason: UndoSkipReason }[];
}

export async function undoTierRun(tx: Tx, shopId: string, runId: string, userId: string | null, now = new Date()) {
  const claimed = await tx.tierRun.updateMany({
    where: { id: runId, shopId, undoneAt: null },
    data: { undoneAt: now, undoneBy: userId },
  });
  if (claimed.count === 0) {
    const run = await tx.tierRun.findFirst({ where: { id: runId, shopId }, select: { id: true } });
    if (!run) throw new AppError("not_found", msg("Settings:autotier.errors.runNotFound"));
    throw new AppError("conflict", msg("Settings:autotier.errors.runUndone"));
  }
  const moves = await tx.tierMove.findMany({
    where: { runId, shopId },
    select: {
      id: true,
      affiliateId: true,
      fromCampaignId: true,
      toCampaignId: true,
      affiliate: { select: { firstName: true, lastName: true, email: true } },
    },
  });
  const dialect = dialectOf(tx);
  const groups = new Map<string, typeof moves>();
  for (const m of moves) {
    const key = `${m.toCampaignId}\u0000${m.fromCampaignId}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const restored = new Set<string>();
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += 500) {
      const chunk = group.slice(i, i + 500);
      const rows: { id: string }[] = await tx.$queryRawUnsafe(
        bind(
          dialect,
          `UPDATE "Affiliate" SET "campaignId" = ?, "updatedAt" = ?
            WHERE "shopId" = ? AND "campaignId" = ? AND "id" IN (${chunk.map(() => "?").join(", ")}) RETURNING "id"`,
        ),
        chunk[0]!.fromCampaignId,
        sqlDate(dialect, now),
        shopId,
        chunk[0]!.toCampaignId,
        ...chunk.map((m) => m.affiliateId),
      );
      for (const r of rows) restored.add(String(r.id));
    }
  }
  const undone = moves.filter((m) => restored.has(m.affiliateId));
  const skipped = moves.filter((m) => !restored.has(m.affiliateId));
  if (undone.length)
    await tx.tierMove.updateMany({ where: { id: { in: undone.map((m) => m.id) } }, data: { undo: "undone" } });
  if (skipped.length)
    await tx.tierMove.updateMany({ where: { id: { in: skipped.map((m) => m.id) } }, data: { undo: "moved_since" } });
  await tx.tierRun.update({ where: { id: runId }, data: { restored: undone.length } });
  return {
    restored: undone.length,
    skipped: skipped.map((m) => ({
      affiliateId: m.affiliateId,
      name: `${m.affiliate.firstName} ${m.affiliate.lastName}`.trim() || m.affiliate.email,
      reason: "moved_since" as const,
    })),
  } satisfies UndoReport;
}
