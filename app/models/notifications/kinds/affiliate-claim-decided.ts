import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { money } from "../notification-values.server";
import { claimedOrderText } from "./merchant-claim-filed";

/**
 * The merchant approved or declined the affiliate's claim of an order. The
 * answer to the affiliate's own request, so transactional (always sent).
 */
export default defineKind({
  key: "affiliate.claim_decided",
  audience: "affiliate",
  transactional: true,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "claim.order": "#1001",
    "claim.approved": "yes",
    "claim.note": "",
  },
  on: {
    "claim.decided": {
      values: async ({ reader, event, shop, language }) => {
        const claim = await reader.orderClaim.findFirst({
          where: { id: event.data.claimId, shopId: shop.id },
          select: {
            orderNumber: true,
            orderDay: true,
            amount: true,
            currency: true,
            declineNote: true,
            order: { select: { name: true } },
          },
        });
        if (!claim) return null;
        const approved = event.data.decision === "approved";
        return {
          // An approved claim names the order now credited (its sales list shows it too).
          "claim.order":
            approved && claim.order
              ? claim.order.name
              : claimedOrderText(claim, (amount, currency) => money(language, amount, currency)),
          "claim.approved": approved ? "yes" : "",
          "claim.note": approved ? "" : (claim.declineNote ?? ""),
        };
      },
    },
  },
});
