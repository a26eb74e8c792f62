// The states of a sale (Order.status) and how a sale was credited to an
// affiliate (Order.attributionSource).
export const SALE_STATUSES = ["pending", "approved", "denied", "paid", "void"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
export const ATTRIBUTION_SOURCES = ["coupon", "link", "pixel", "lifetime", "none"] as const;
export type AttributionSource = (typeof ATTRIBUTION_SOURCES)[number];
