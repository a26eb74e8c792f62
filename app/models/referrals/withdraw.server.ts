import type { Tx } from "../../db/transaction";
import { enqueueJob } from "../jobs/enqueue.server";

/**
 * Marks the advocate (or, without advocateId, every advocate of the shop)
 * disabled and queues referrals.withdraw, which deletes their codes in
 * Shopify after the commit. A disabled advocate is credited no new referral.
 */
export async function queueReferralWithdrawal(tx: Tx, shopId: string, advocateId?: string): Promise<void> {
  await tx.referralAdvocate.updateMany({
    where: { shopId, disabledAt: null, ...(advocateId ? { id: advocateId } : {}) },
    data: { disabledAt: new Date() },
  });
  await enqueueJob(tx, "referrals.withdraw", advocateId ? { shopId, advocateId } : { shopId });
}
