// Pricing plans. Prices are minor units of USD per 30 days (Shopify Billing
// charges in USD). Paid plans go through Shopify Billing when embedded.
export const PLANS = [
  { id: "free", price: 0, affiliateLimit: 50, features: ["tracking", "commissions", "portal"] },
  {
    id: "growth",
    price: 2900,
    affiliateLimit: 1000,
    features: ["tracking", "commissions", "portal", "mlm", "payouts"],
  },
  {
    id: "pro",
    price: 9900,
    affiliateLimit: null,
    features: ["tracking", "commissions", "portal", "mlm", "payouts", "api", "customDomain"],
  },
] as const;

export type PlanId = (typeof PLANS)[number]["id"];

export function findPlan(id: string | null | undefined) {
  return PLANS.find((p) => p.id === id);
}
