import type { Tx } from "../../db/transaction";
import { emitEvent } from "../events/emit-event.server";
import { detectLeak, leakSettingsOf, MAX_FLAG_ORDERS } from "./detect-leak";

// The leaks.check job (ADR 051): queued by order intake for a code-only
// order (record-order.server.ts), one per affiliate and minute, so intake
// itself only writes a job row. It reads the affiliate's orders of the
// window and asks the pure detector; a leak opens a flag that holds the
// commissions of the code-only orders (Order.leakHoldId) and tells the
// merchant (leak.flagged → e-mail, after the commit). While a flag is open,
// later code-only orders with the code join it and are held too.

/** Rows read per check: a window busier than this is judged on its newest orders. */
const WINDOW_ROWS = 2_000;
/** Order ids per hold statement. */
const HOLD_CHUNK = 500;

export type CheckOutcome = "off" | "clear" | "flagged" | "joined";

export async function checkLeak(
  tx: Tx,
  payload: { shopId: string; affiliateId: string; code: string },
  now = new Date(),
): Promise<CheckOutcome> {
  const { shopId, affiliateId, code } = payload;
  const shop = await tx.shop.findUnique({ where: { id: shopId }, select: { settings: true } });
  if (!shop) return "off";
  const settings = leakSettingsOf(shop.settings);
  if (!settings.enabled) return "off";

  const open = await tx.leakFlag.findFirst({ where: { shopId, openKey: code }, select: { id: true, orderIds: true } });
  // After a decided flag for this code, counting starts again: released
  // orders do not flag the same code a second time.
  const lastDecided = await tx.leakFlag.findFirst({
    where: { shopId, code, status: { not: "open" } },
    orderBy: { decidedAt: "desc" },
    select: { decidedAt: true },
  });
  let since = new Date(now.getTime() - settings.windowHours * 3_600_000);
  if (lastDecided?.decidedAt && lastDecided.decidedAt > since) since = lastDecided.decidedAt;
  const rows = await tx.order.findMany({
    where: { shopId, affiliateId, placedAt: { gte: since }, cancelledAt: null },
    orderBy: { placedAt: "desc" },
    take: WINDOW_ROWS,
    select: { id: true, placedAt: true, codeOnly: true, referringHost: true, discountCodes: true, leakHoldId: true },
  });
  const usedCode = (discountCodes: string) => {
    try {
      return (JSON.parse(discountCodes) as string[]).includes(code);
    } catch {
      return false;
    }
  };
  const orders = rows.map((o) => ({
    id: o.id,
    placedAt: o.placedAt,
    codeOnly: o.codeOnly === true && usedCode(o.discountCodes),
    referringHost: o.referringHost,
  }));

  if (open) {
    // The open flag takes the new code-only orders (and holds them).
    const listed = new Set(JSON.parse(open.orderIds) as string[]);
    const fresh = orders.filter((o) => o.codeOnly && !listed.has(o.id)).map((o) => o.id);
    if (fresh.length === 0) return "clear";
    const ids = [...fresh, ...listed].slice(0, MAX_FLAG_ORDERS);
    // Compare-and-set: a flag released or rotated since the read (another
    // transaction, on PostgreSQL) must not take orders it could never let go.
    const moved = await tx.leakFlag.updateMany({
      where: { id: open.id, status: "open" },
      data: { orderIds: JSON.stringify(ids) },
    });
    if (moved.count === 0) return "clear";
    // A window holds up to WINDOW_ROWS orders, more ids than one statement
    // may carry (SQLite through the adapter refuses past its parameter limit).
    for (let at = 0; at < fresh.length; at += HOLD_CHUNK) {
      await tx.order.updateMany({
        where: { shopId, id: { in: fresh.slice(at, at + HOLD_CHUNK) }, leakHoldId: null },
        data: { leakHoldId: open.id },
      });
    }
    return "joined";
  }

  const decision = detectLeak(settings, { code, orders, now });
  if (!decision.flag) return "clear";
  const flag = await tx.leakFlag.create({
    data: {
      shopId,
      affiliateId,
      code,
      openKey: code,
      reasonKey: decision.reason.key,
      reasonValues: JSON.stringify(decision.reason.values),
      orderIds: JSON.stringify(decision.orderIds),
    },
    select: { id: true },
  });
  await tx.order.updateMany({
    where: { shopId, id: { in: decision.orderIds }, leakHoldId: null },
    data: { leakHoldId: flag.id },
  });
  await emitEvent(tx, shopId, "leak.flagged", {
    flagId: flag.id,
    affiliateId,
    code,
    orders: decision.orderIds.length,
    reasonKey: decision.reason.key,
  });
  return "flagged";
}
