import type { Tx } from "../../db/transaction";

/** One line of a payout's status history (PayoutEvent). */
export function addPayoutEvent(
  tx: Tx,
  shopId: string,
  payoutId: string,
  entry: { status: string; message?: string; actor: string },
) {
  return tx.payoutEvent.create({
    data: { shopId, payoutId, status: entry.status, message: entry.message ?? "", actor: entry.actor },
  });
}
