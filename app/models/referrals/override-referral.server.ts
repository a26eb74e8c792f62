import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { enqueueJob } from "../jobs/enqueue.server";
import { NOT_IN_FLIGHT, referralTransition } from "./referral-states";

// The merchant's word over the checks: "approve" a blocked referral (back to
// pending; the reward comes at the end of the hold, or at once if the hold is
// over) or "block" a pending one (no reward). The note says why and is kept
// with who decided and when. Any other move is a 409 that says what the
// referral's state allows.

export const OVERRIDE_NOTE_MAX = 500;

const FROM: Record<"approve" | "block", string> = { approve: "blocked", block: "pending" };

export async function overrideReferral(
  db: ShopDb,
  input: { referralId: string; decision: "approve" | "block"; note: string; by: string },
): Promise<void> {
  const note = input.note.trim();
  if (!note || note.length > OVERRIDE_NOTE_MAX) {
    const text = msg("Referrals:override.noteRequired", { max: OVERRIDE_NOTE_MAX });
    throw new AppError("validation_failed", text, { fields: { note: text } });
  }
  await db.$transaction(async (tx: Tx) => {
    const referral = await tx.referral.findFirst({
      where: { id: input.referralId, shopId: db.$shopId },
      select: { id: true, status: true, holdUntil: true, rewardCode: true, rewardGid: true },
    });
    if (!referral) throw new AppError("not_found", msg("Referrals:override.notFound"));
    const from = FROM[input.decision];
    const refuse = () =>
      new AppError(
        "conflict",
        msg(`Referrals:override.${input.decision === "approve" ? "onlyBlocked" : "onlyPending"}`, {
          status: referral.status,
        }),
      );
    if (referral.status !== from) throw refuse();
    const to = input.decision === "approve" ? "pending" : "blocked";
    // A reward on its way is the reward job's to finish (referral-states.ts).
    if (referralTransition(referral, to, "merchant").ok === false) {
      throw new AppError("conflict", msg("Referrals:override.rewardOnItsWay"));
    }
    const now = new Date();
    // Guarded by the state read above: a reward or a refund that got there first wins.
    const changed = await tx.referral.updateMany({
      where: { id: referral.id, shopId: db.$shopId, status: from, ...(to === "blocked" ? NOT_IN_FLIGHT : {}) },
      data: {
        status: input.decision === "approve" ? "pending" : "blocked",
        ...(input.decision === "block" ? { blockedRule: null } : {}),
        overrideNote: note,
        overriddenBy: input.by.slice(0, 200),
        overriddenAt: now,
      },
    });
    if (changed.count !== 1) throw refuse();
    if (input.decision === "approve") {
      // No unique key: a referral approved, blocked and approved again needs a
      // job each time; the reward job gives the reward once whatever runs.
      const runAt = referral.holdUntil > now ? referral.holdUntil : now;
      await enqueueJob(tx, "referrals.reward", { referralId: referral.id }, { runAt });
    }
  });
}
