import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues, money } from "../notification-values.server";

/** An affiliate claimed an order that was not credited to them (models/claims). */
export default defineKind({
  key: "merchant.claim_filed",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "claim.order": "#1001",
    admin_url: "https://app.example/admin/sales/claims/c1",
  },
  on: {
    "claim.filed": {
      values: async ({ reader, event, shop, affiliate, language }) => {
        const claim = await reader.orderClaim.findFirst({
          where: { id: event.data.claimId, shopId: shop.id },
          select: { id: true, orderNumber: true, orderDay: true, amount: true, currency: true },
        });
        if (!claim) return null;
        return {
          ...affiliateValues(shop, affiliate),
          "claim.order": claimedOrderText(claim, (amount, currency) => money(language, amount, currency)),
          admin_url: adminUrl(`/sales/claims/${claim.id}`),
        };
      },
    },
  },
});

/** "#1001", or "2026-11-27, $85.00" for a claim by date and total. */
export function claimedOrderText(
  claim: { orderNumber: string | null; orderDay: string | null; amount: number | null; currency: string | null },
  format: (amount: number, currency: string) => string,
): string {
  if (claim.orderNumber) return claim.orderNumber;
  const amount = claim.amount !== null && claim.currency ? format(claim.amount, claim.currency) : "";
  return [claim.orderDay, amount].filter(Boolean).join(", ");
}
