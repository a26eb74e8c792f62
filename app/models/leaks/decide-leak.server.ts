import { createHash } from "node:crypto";
import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { emitEvent } from "../events/emit-event.server";
import { enqueueJob, notifyJobsEnqueued } from "../jobs/enqueue.server";

// The merchant's two answers to an open leak flag (ADR 051), each a
// compare-and-set from "open" in one transaction: a second answer (another
// tab, a colleague) finds the flag no longer open and gets a 409 that
// changes nothing; only the winner emits its event and queues its job.
//
// - release: the hold ends; the orders go back to their normal course
//   (automatic approval, whose time may have passed meanwhile, is queued again).
// - rotate: the hold ends too, but the orders wait for the merchant's own
//   review (their automatic approval is cancelled); a new code for the
//   affiliate is chosen now and created in Shopify, and the old one
//   deactivated, by the leaks.rotate job after the commit.

export type LeakAnswer = "rotate" | "release";

/** The rotated code: the old one and a suffix derived from the flag (a rerun picks the same one). */
export function rotatedCode(code: string, flagId: string): string {
  const suffix = parseInt(createHash("sha256").update(flagId).digest("hex").slice(0, 10), 16)
    .toString(36)
    .toUpperCase()
    .padStart(5, "0")
    .slice(-5);
  return `${code.replace(/-[A-Z0-9]{5}$/, "").slice(0, 240)}-${suffix}`;
}

async function heldOrders(tx: Tx, shopId: string, flagId: string) {
  return tx.order.findMany({
    where: { shopId, leakHoldId: flagId },
    select: { id: true, status: true, approveAfter: true, cancelledAt: true },
  });
}

export async function answerLeakFlag(db: ShopDb, flagId: string, answer: LeakAnswer, now = new Date()) {
  const shopId = db.$shopId;
  const result = await db.$transaction(async (tx) => {
    const flag = await tx.leakFlag.findFirst({
      where: { id: flagId, shopId },
      select: { id: true, status: true, code: true, affiliateId: true },
    });
    if (!flag) throw new AppError("not_found", "No leak flag with this id.");
    const refuse = (status: string) => new AppError("conflict", `This flag is already ${status}.`);
    if (flag.status !== "open") throw refuse(flag.status);
    const status = answer === "rotate" ? "rotated" : "released";
    const newCode = answer === "rotate" ? rotatedCode(flag.code, flag.id) : null;
    const moved = await tx.leakFlag.updateMany({
      where: { id: flag.id, shopId, status: "open" },
      data: {
        status,
        openKey: null,
        decidedAt: now,
        ...(newCode ? { newCode, rotation: "pending", rotationError: null } : {}),
      },
    });
    if (moved.count !== 1) throw refuse("decided");

    const orders = await heldOrders(tx, shopId, flag.id);
    await tx.order.updateMany({ where: { shopId, leakHoldId: flag.id }, data: { leakHoldId: null } });
    const pending = orders.filter((o) => o.status === "pending" && !o.cancelledAt);
    if (answer === "release") {
      // Automatic approval comes back; a time that passed while held is due now.
      for (const o of pending) {
        if (!o.approveAfter) continue;
        await enqueueJob(
          tx,
          "orders.approve",
          { orderId: o.id },
          {
            uniqueKey: `approve:${o.id}:leak:${flag.id}`,
            runAt: o.approveAfter > now ? o.approveAfter : now,
          },
        );
      }
      await emitEvent(tx, shopId, "leak.released", { flagId: flag.id, affiliateId: flag.affiliateId, code: flag.code });
    } else {
      await tx.order.updateMany({
        where: { shopId, id: { in: pending.map((o) => o.id) }, status: "pending" },
        data: { approveAfter: null },
      });
      await enqueueJob(tx, "leaks.rotate", { flagId: flag.id }, { uniqueKey: `leak-rotate:${flag.id}` });
      await emitEvent(tx, shopId, "leak.rotated", {
        flagId: flag.id,
        affiliateId: flag.affiliateId,
        code: flag.code,
        newCode: newCode!,
      });
    }
    return { id: flag.id, status, newCode, orders: orders.length };
  });
  notifyJobsEnqueued();
  return result;
}
