import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/transaction";
import { prismaBulk } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import { emitEvents } from "../events/emit-event.server";
import { paymentSettingsOf } from "./payment-settings";
import { groupsToOpen, pendingToCancel } from "./pending-plan";
import { lockPendingPayouts, looseGroups, setPendingAmounts } from "./payout-sql.server";
import { openKeyOf } from "./payout-states";

// Keeps one pending payout per affiliate and currency whose balance reaches
// the shop's minimum. Set-based (a handful of statements whatever the number
// of affiliates), because auto-pay runs it over a whole shop: see the
// payouts benchmark. A pending payout holds no lines (ADR 058): it shows the
// affiliate's loose balance, and the lines join it when it leaves pending
// (attachLinesLeavingPending, in the same transaction as its
// compare-and-set), so this never rewrites the lines themselves.
//
// 1. sum the loose payable lines per affiliate and currency (one read);
// 2. open a pending payout for each group at the minimum (pending-plan.ts);
// 3. set each pending payout's amount to its group's sum where it changed
//    (new sales and negative refund lines alike), 0 where nothing is loose;
// 4. a pending payout that fell below the minimum (a refund, a raised
//    minimum) is cancelled: its balance stays, and a negative one carries
//    over to the next payout.

export interface RefreshResult {
  created: number;
  updated: number;
}

const BATCH = 500;

export async function refreshPendingPayouts(
  tx: Tx,
  shopId: string,
  options: { affiliateIds?: string[] } = {},
): Promise<RefreshResult> {
  const shop = await tx.shop.findUnique({ where: { id: shopId }, select: { settings: true } });
  if (!shop) return { created: 0, updated: 0 };
  const { minimumAmount } = paymentSettingsOf(shop.settings);
  const now = new Date();
  const pending = { shopId, pending: true as const, affiliateIds: options.affiliateIds };

  // Wait for a batch, a settle or another refresh that is moving these
  // payouts, then read them as they are (and the balances after them).
  const open = await lockPendingPayouts(tx, pending);
  const groups = await looseGroups(tx, shopId, options.affiliateIds);
  const openKeys = new Set(open.map((p) => p.key));
  // The pending payouts whose balance changed since the last refresh (a new
  // line, a refund, a voided line): only they are written.
  const sums = new Map(groups.map((g) => [openKeyOf(g.affiliateId, g.currency), g.amount]));
  const changed = open
    .map((p) => ({ id: p.id, amount: sums.get(p.key) ?? 0, was: p.amount }))
    .filter((p) => p.amount !== p.was)
    .map(({ id, amount }) => ({ id, amount }));
  const toOpen = groupsToOpen(groups, openKeys, minimumAmount);
  let created = toOpen.map((g) => ({
    id: randomUUID(),
    shopId,
    affiliateId: g.affiliateId,
    currency: g.currency,
    amount: g.amount,
    status: "pending",
    method: "manual",
    openKey: openKeyOf(g.affiliateId, g.currency),
    createdAt: now,
    updatedAt: now,
  }));
  // Bulk inserts as one JSON parameter per slice (bulk-sql.server.ts):
  // Prisma's createMany costs far more per row on ten thousand payouts.
  const bulk = prismaBulk(tx, dialectOf(tx));
  // A concurrent refresh may have opened the same affiliate and currency
  // (openKey is unique): its payout stands, this one is not made. The
  // insert answers which ids it made, so no second read per slice.
  const made = new Set(await bulk.insertNew("Payout", created, "id"));
  created = created.filter((p) => made.has(p.id));
  await bulk.insertRows(
    "PayoutEvent",
    created.map((p) => ({
      id: randomUUID(),
      shopId,
      payoutId: p.id,
      status: "pending",
      message: "",
      actor: "system",
      createdAt: now,
    })),
  );

  await setPendingAmounts(tx, shopId, changed, now);

  // The payouts this refresh locked whose balance may not be paid; the ones
  // it created are payable by construction (groupsToOpen).
  const belowIds = pendingToCancel(open, sums, minimumAmount);
  for (let i = 0; i < belowIds.length; i += BATCH) {
    const ids = belowIds.slice(i, i + BATCH);
    await tx.payout.updateMany({
      where: { shopId, id: { in: ids }, status: "pending" },
      data: { status: "cancelled", openKey: null, amount: 0, failureReason: "below_minimum" },
    });
    await tx.payoutEvent.createMany({
      data: ids.map((payoutId) => ({
        shopId,
        payoutId,
        status: "cancelled",
        message: "below_minimum",
        actor: "system",
        createdAt: now,
      })),
    });
  }

  await emitEvents(
    tx,
    shopId,
    "payout.created",
    created.map((p) => ({
      payoutId: p.id,
      affiliateId: p.affiliateId,
      amount: p.amount,
      currency: p.currency,
      method: p.method,
    })),
  );
  return { created: created.length, updated: changed.length };
}
