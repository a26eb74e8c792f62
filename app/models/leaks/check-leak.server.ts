import { prismaBulk } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { emitEvent } from "../events/emit-event.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { detectLeak, leakSettingsOf, MAX_FLAG_ORDERS } from "./detect-leak";

// The leaks.check job (ADR 051): queued by order intake for a code-only
// order (record-order.server.ts), one per affiliate and minute, so intake
// itself only writes a job row. It reads the affiliate's orders of the
// window and asks the pure detector (a plan step, outside the write
// transaction); a leak opens a flag that holds the
// commissions of the code-only orders (Order.leakHoldId) and tells the
// merchant (leak.flagged → e-mail, after the commit). While a flag is open,
// later code-only orders with the code join it and are held too.

/** Rows read per check: a window busier than this is judged on its newest orders. */
const WINDOW_ROWS = 2_000;
/**
 * Orders held by one check's write. A leaked code on a busy deal site
 * brings up to WINDOW_ROWS fresh orders at once; holding them all in one
 * write held SQLite's write lock 58-73 ms (the orders bench: 28 ms in the
 * UPDATEs, the rest Prisma building them). The newest JOIN_SLICE are held
 * and the check queues itself again for the rest, in the same write.
 */
export const JOIN_SLICE = MAX_FLAG_ORDERS;

type CheckPayload = { shopId: string; affiliateId: string; code: string };

export type CheckOutcome = "off" | "clear" | "flagged" | "joined";

/** The write a check decided on; it runs in the job's transaction and says what it did. */
export type LeakWrite = (tx: Tx) => Promise<CheckOutcome>;

/**
 * Reads the shop's settings, the code's flags and the affiliate's orders of
 * the window, and decides, outside any transaction: on SQLite the read of up
 * to WINDOW_ROWS orders (tens of milliseconds through Prisma in a leak's
 * burst) no longer holds the write lock. Returns what it found ("off",
 * "clear") or the write, which checks again what it relies on.
 */
export async function planLeakCheck(
  db: Tx,
  payload: CheckPayload,
  now = new Date(),
): Promise<"off" | "clear" | LeakWrite> {
  const { shopId, affiliateId, code } = payload;
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { settings: true } });
  if (!shop) return "off";
  const settings = leakSettingsOf(shop.settings);
  if (!settings.enabled) return "off";

  const open = await db.leakFlag.findFirst({ where: { shopId, openKey: code }, select: { id: true } });
  // After a decided flag for this code, counting starts again: released
  // orders do not flag the same code a second time.
  const lastDecided = await db.leakFlag.findFirst({
    where: { shopId, code, status: { not: "open" } },
    orderBy: { decidedAt: "desc" },
    select: { decidedAt: true },
  });
  let since = new Date(now.getTime() - settings.windowHours * 3_600_000);
  if (lastDecided?.decidedAt && lastDecided.decidedAt > since) since = lastDecided.decidedAt;
  const rows = await db.order.findMany({
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
    held: o.leakHoldId !== null,
  }));
  // The code-only orders not held yet, newest first.
  const fresh = orders.filter((o) => o.codeOnly && !o.held).map((o) => o.id);

  if (open) {
    // The open flag takes the fresh orders (and holds them). Its list is no
    // guide: it keeps only the newest MAX_FLAG_ORDERS, and every order on it
    // is held while the flag is open.
    if (fresh.length === 0) return "clear";
    const more = fresh.length > JOIN_SLICE;
    return (tx) => joinFlag(tx, payload, open.id, fresh.slice(0, JOIN_SLICE), more);
  }

  const decision = detectLeak(settings, { code, orders, now });
  if (!decision.flag) return "clear";
  // The flag lists (and holds) the newest MAX_FLAG_ORDERS; older code-only
  // orders of the window are held by the check this write queues.
  const more = fresh.length > decision.orderIds.length;
  return async (tx) => {
    // Another check (another worker, PostgreSQL) opened the code's flag since
    // the read: its orders join that flag instead of a second one.
    const opened = await tx.leakFlag.findFirst({ where: { shopId, openKey: code }, select: { id: true } });
    if (opened) return joinFlag(tx, payload, opened.id, decision.orderIds, more);
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
    await holdOrders(tx, shopId, flag.id, decision.orderIds);
    if (more) await checkAgain(tx, payload, flag.id, decision.orderIds);
    await emitEvent(tx, shopId, "leak.flagged", {
      flagId: flag.id,
      affiliateId,
      code,
      orders: decision.orderIds.length,
      reasonKey: decision.reason.key,
    });
    return "flagged";
  };
}

/**
 * Holds the orders not held yet under the flag. The ids go as one JSON
 * parameter (bulk-sql.server.ts), so the statement is the same for any
 * number of them: Prisma's updateMany compiled a new statement for each
 * count of ids, up to 37 ms of a 61 ms hold in the orders bench.
 */
function holdOrders(tx: Tx, shopId: string, flagId: string, ids: string[]) {
  const set = { leakHoldId: flagId, updatedAt: new Date() };
  return prismaBulk(tx, dialectOf(tx)).updateIn("Order", set, { shopId, leakHoldId: null }, "id", ids);
}

/**
 * Queues the next check of a window with more fresh orders than one write
 * holds. Keyed by what this write held, so a retried job queues it once.
 */
async function checkAgain(tx: Tx, payload: CheckPayload, flagId: string, held: string[]) {
  await enqueueJob(tx, "leaks.check", payload, { uniqueKey: `leak-check:${flagId}:after:${held[held.length - 1]}` });
}

/**
 * Adds orders (at most JOIN_SLICE) to an open flag's list and holds them,
 * and queues the next check when `more` wait; nothing when the flag was
 * released or rotated meanwhile.
 */
async function joinFlag(
  tx: Tx,
  payload: CheckPayload,
  flagId: string,
  orderIds: string[],
  more: boolean,
): Promise<CheckOutcome> {
  const { shopId } = payload;
  // The list as it is now (another check may have added to it since the plan read it).
  const current = await tx.leakFlag.findFirst({
    where: { id: flagId, shopId, status: "open" },
    select: { orderIds: true },
  });
  if (!current) return "clear";
  const ids = [...new Set([...orderIds, ...(JSON.parse(current.orderIds) as string[])])].slice(0, MAX_FLAG_ORDERS);
  // Compare-and-set: a flag released or rotated since the read (another
  // transaction, on PostgreSQL) must not take orders it could never let go.
  const moved = await tx.leakFlag.updateMany({
    where: { id: flagId, status: "open" },
    data: { orderIds: JSON.stringify(ids) },
  });
  if (moved.count === 0) return "clear";
  await holdOrders(tx, shopId, flagId, orderIds);
  if (more) await checkAgain(tx, payload, flagId, orderIds);
  return "joined";
}

/** The job's plan step (job-registry.server.ts): the write, or nothing to write. */
export async function planLeakCheckJob(payload: CheckPayload, db: Tx) {
  const plan = await planLeakCheck(db, payload);
  return typeof plan === "function" ? plan : null;
}

/** Plans and writes at once (tests; the write in the given client). */
export async function checkLeak(client: Tx, payload: CheckPayload, now = new Date()): Promise<CheckOutcome> {
  const plan = await planLeakCheck(client, payload, now);
  return typeof plan === "function" ? plan(client) : plan;
}
