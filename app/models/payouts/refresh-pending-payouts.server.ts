import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/transaction";
import { prismaBulk } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import { emitEvents } from "../events/emit-event.server";
import { paymentSettingsOf } from "./payment-settings";
import { groupsToOpen } from "./pending-plan";
import {
  attachLooseLines,
  looseGroups,
  lockPayouts,
  pendingBelowMinimum,
  pendingOpenKeys,
  sumPayoutsFromLines,
  withWidePageCache,
} from "./payout-sql.server";
import { openKeyOf } from "./payout-states";

// Gathers the payable lines into pending payouts: one per affiliate and
// currency, opened once the balance reaches the shop's minimum. Set-based
// (a handful of statements whatever the number of affiliates), because
// auto-pay runs it over a whole shop: see the payouts benchmark.
//
// 1. sum the loose payable lines per affiliate and currency;
// 2. open a pending payout for each group at the minimum (pending-plan.ts);
// 3. attach every loose payable line whose affiliate and currency has an
//    open payout: new sales and negative refund lines alike;
// 4. re-sum the open payouts from their lines (the lines are the truth, so
//    a line approved while this ran is counted where it landed);
// 5. an open payout that fell below the minimum (a refund, a raised
//    minimum) is cancelled and its lines go back to the balance, where a
//    negative amount carries over to the next payout.

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
  // payouts, then read them as they are: a line is attached only to a payout
  // still pending when the attach runs.
  await lockPayouts(tx, pending);

  const groups = await looseGroups(tx, shopId, options.affiliateIds);
  const openKeys = await pendingOpenKeys(tx, pending);
  const grown = groups.filter((g) => openKeys.has(openKeyOf(g.affiliateId, g.currency))).length;

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

  const gather = async () => {
    if (created.length > 0 || grown > 0) await attachLooseLines(tx, shopId, options.affiliateIds);
    await sumPayoutsFromLines(tx, pending, now);
  };
  // A few affiliates' lines fit the default cache; a whole shop's do not.
  await (options.affiliateIds ? gather() : withWidePageCache(tx, gather));

  const belowIds = await pendingBelowMinimum(tx, pending, minimumAmount);
  for (let i = 0; i < belowIds.length; i += BATCH) {
    const ids = belowIds.slice(i, i + BATCH);
    await tx.commission.updateMany({ where: { shopId, payoutId: { in: ids } }, data: { payoutId: null } });
    await tx.payout.updateMany({
      where: { shopId, id: { in: ids } },
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

  const belowSet = new Set(belowIds);
  const announced = created.filter((p) => !belowSet.has(p.id));
  await emitEvents(
    tx,
    shopId,
    "payout.created",
    announced.map((p) => ({
      payoutId: p.id,
      affiliateId: p.affiliateId,
      amount: p.amount,
      currency: p.currency,
      method: p.method,
    })),
  );
  return { created: announced.length, updated: grown };
}
