// Plain-words sentences for the sale screens. The attribution reason itself
// is written when the order is credited (app/models/attribution) and stored
// with the order; these cover what the stored data alone does not say.

export type SaleStatus = "pending" | "approved" | "denied" | "paid" | "void";

/** Why the order was, or was not, credited. Older rows may have no stored reason. */
export function attributionSentence(sale: { source: string; reason: string; affiliateName: string | null }): string {
  if (sale.reason.trim()) return sale.reason;
  if (sale.source === "none" || !sale.affiliateName) {
    return "Not credited to any affiliate: the order carried no affiliate coupon, referral link click or lifetime customer link.";
  }
  const how: Record<string, string> = {
    coupon: "their coupon code was used at checkout",
    link: "the customer clicked their referral link within the cookie window",
    pixel: "the store's checkout pixel reported their referral",
    lifetime: "the customer is linked to them for life by an earlier referral",
  };
  return `Credited to ${sale.affiliateName}: ${how[sale.source] ?? "they referred the customer"}.`;
}

/** Which decisions the merchant may take on a sale now. */
export function saleActions(status: string): { canApprove: boolean; canDeny: boolean } {
  const pending = status === "pending";
  return { canApprove: pending, canDeny: pending };
}
