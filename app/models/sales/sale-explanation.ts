// What the sale screens derive from a sale's state. The attribution reason
// is stored as a key and values when the order is credited and written out
// in the reader's language (app/models/attribution/attribution-reason.ts).

export type SaleStatus = "pending" | "approved" | "denied" | "paid" | "void";

/** Which decisions the merchant may take on a sale now. */
export function saleActions(status: string): { canApprove: boolean; canDeny: boolean } {
  const pending = status === "pending";
  return { canApprove: pending, canDeny: pending };
}
