import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { moveAffiliatesIfStill } from "./move-affiliates.server";

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
  // Back from where the run put them to where they came from, if still there.
  const restored = await moveAffiliatesIfStill(
    tx,
    shopId,
    moves.map((m) => ({ affiliateId: m.affiliateId, fromCampaignId: m.toCampaignId, toCampaignId: m.fromCampaignId })),
    now,
  );
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
