import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { emitEvent } from "../events/emit-event.server";
import type { ClaimDecision } from "./claim-input";
import { creditClaimedOrder } from "./credit-claimed-order.server";

// The merchant's decision on an open claim. The claim leaves "open" by a
// compare-and-set inside the transaction that also credits the order: of two
// decisions at once, one wins, the other is a 409 that changes nothing and
// sends nothing. Approving credits the order to the claimant through the
// normal commission path; an order already credited to another affiliate is
// refused (the merchant declines the claim instead: re-crediting a sale would
// take money from an affiliate who may already have been paid for it).

export async function decideClaim(db: ShopDb, claimId: string, decision: ClaimDecision, staffName: string) {
  const shopId = db.$shopId;
  return db.$transaction(async (tx) => {
    const claim = await tx.orderClaim.findFirst({
      where: { id: claimId, shopId },
      include: {
        affiliate: {
          select: { id: true, firstName: true, lastName: true, referralCode: true, status: true, campaignId: true },
        },
      },
    });
    if (!claim) throw new AppError("not_found", "No claim with this id.");
    if (claim.status !== "open") throw new AppError("conflict", `This claim was already ${claim.status}.`);
    const status = decision.intent === "approve" ? "approved" : "declined";
    const now = new Date();
    const { count } = await tx.orderClaim.updateMany({
      where: { id: claim.id, shopId, status: "open" },
      data: {
        status,
        openKey: null,
        decidedAt: now,
        decidedBy: staffName,
        declineNote: decision.intent === "decline" ? decision.note : null,
      },
    });
    if (count === 0) throw new AppError("conflict", "This claim was decided meanwhile.");
    if (decision.intent === "approve") {
      if (!claim.orderId) throw new AppError("conflict", "No order matches this claim: it can only be declined.");
      await creditClaimedOrder(tx, shopId, claim.orderId, claim.affiliate, staffName, now);
    }
    await emitEvent(tx, shopId, "claim.decided", {
      claimId: claim.id,
      affiliateId: claim.affiliateId,
      decision: status,
    });
    return { id: claim.id, status };
  });
}
