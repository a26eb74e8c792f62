// The states of a sale (Order.status) and how a sale was credited to an
// affiliate (Order.attributionSource).
export const SALE_STATUSES = ["pending", "approved", "denied", "paid", "void"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
export const ATTRIBUTION_SOURCES = ["coupon", "link", "pixel", "lifetime", "subscription", "claim", "none"] as const;
export type AttributionSource = (typeof ATTRIBUTION_SOURCES)[number];

/**
 * The state a sale screen shows. The stored status says what the merchant
 * decided; two cases read wrong as that alone: an order credited to nobody
 * has nothing to approve ("Pending · $0.00"), and a sale refunded in full
 * has no commission left to pay whatever its decision.
 */
export type ShownSaleStatus = SaleStatus | "refunded" | "uncredited";

export function shownSaleStatus(sale: {
  status: string;
  credited: boolean;
  total: number;
  refundedAmount: number;
}): ShownSaleStatus {
  if (!sale.credited) return "uncredited";
  const refundedInFull = sale.total > 0 && sale.refundedAmount >= sale.total;
  if (refundedInFull && (sale.status === "pending" || sale.status === "approved")) return "refunded";
  return sale.status as SaleStatus;
}
