import type { ShopDb } from "../../db/shop-db.server";

// SCAFFOLD: slice ENGINE owns this module (docs: /work/referrals-contract.md);
// the lead keeps ENGINE's implementation at merge. The referral screen's
// approve / block actions call it with exactly this signature.
//
// Merchant override with a note (required, 1..500 chars): "approve" a blocked referral (back to
// pending, reward at holdUntil or at once if passed) or "block" a pending one. Anything else →
// AppError 409 with a clear message. Records overrideNote/overriddenBy/overriddenAt.
export async function overrideReferral(
  _db: ShopDb,
  _input: { referralId: string; decision: "approve" | "block"; note: string; by: string },
): Promise<void> {
  throw new Error("not built yet (slice ENGINE)");
}
