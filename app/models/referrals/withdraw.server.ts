import type { Tx } from "../../db/transaction";

// Marks the advocate(s) disabled and queues referrals.withdraw (codes deleted in Shopify).
// PLACEHOLDER: the STOREFRONT slice (branch raf-storefront) owns this module;
// at merge its real body replaces this one.
export async function queueReferralWithdrawal(_tx: Tx, _shopId: string, _advocateId?: string): Promise<void> {
  throw new Error("not built yet (slice STOREFRONT)");
}
