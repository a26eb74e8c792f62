// Which pending payouts to create: pure, so the rule is tested by table
// (pending-plan.test.ts) and refresh-pending-payouts.server.ts only runs it.

import { openKeyOf } from "./payout-states";

/** The payable lines of one affiliate in one currency that are not in a payout yet. */
export interface LooseGroup {
  affiliateId: string;
  currency: string;
  /** Sum of the lines (refund lines are negative). */
  amount: number;
  lines: number;
}

/** An amount that may be paid: positive and at least the shop's minimum (minor units of its currency). */
export function isPayableAmount(amount: number, minimum: number): boolean {
  return amount > 0 && amount >= minimum;
}

/**
 * The groups that get a new pending payout. A group whose affiliate already
 * has a pending payout in that currency joins it instead (the caller
 * attaches the lines and re-sums); a group below the minimum, or negative,
 * stays in the balance and carries over to the next payout.
 */
export function groupsToOpen(groups: readonly LooseGroup[], openKeys: ReadonlySet<string>, minimum: number) {
  return groups.filter(
    (g) => g.lines > 0 && !openKeys.has(openKeyOf(g.affiliateId, g.currency)) && isPayableAmount(g.amount, minimum),
  );
}

/**
 * The pending payouts a refresh cancels (below_minimum): those whose balance,
 * read by the same refresh, may not be paid. `balances` is keyed by open key;
 * a payout with no loose lines left has a balance of 0.
 */
export function pendingToCancel(
  open: readonly { id: string; key: string }[],
  balances: ReadonlyMap<string, number>,
  minimum: number,
) {
  return open.filter((p) => !isPayableAmount(balances.get(p.key) ?? 0, minimum)).map((p) => p.id);
}
