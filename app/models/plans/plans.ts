// The pricing plans, in one place (docs/decisions/029). Flat prices, no
// success fees. Prices are minor units of USD (Shopify Billing charges apps in
// USD): monthly = every 30 days, yearly = once a year. `null` limits mean
// "unlimited".

export const PLAN_FEATURES = [
  "mlm",
  "paypalPayouts",
  "autoTier",
  "referAFriend",
  "customDomain",
  "integrations",
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const PLAN_LIMITS = ["affiliates", "campaigns"] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

export interface Plan {
  id: string;
  monthlyPrice: number;
  yearlyPrice: number;
  trialDays: number;
  limits: Record<PlanLimit, number | null>;
  features: readonly PlanFeature[];
}

export const PLANS = [
  {
    id: "free",
    monthlyPrice: 0,
    yearlyPrice: 0,
    trialDays: 0,
    limits: { affiliates: 50, campaigns: 3 },
    features: [],
  },
  {
    id: "growth",
    monthlyPrice: 2900,
    yearlyPrice: 29000,
    trialDays: 14,
    limits: { affiliates: 1000, campaigns: 10 },
    features: ["mlm", "paypalPayouts", "autoTier", "referAFriend"],
  },
  {
    id: "pro",
    monthlyPrice: 9900,
    yearlyPrice: 99000,
    trialDays: 14,
    limits: { affiliates: null, campaigns: null },
    features: [...PLAN_FEATURES],
  },
] as const satisfies readonly Plan[];

export type PlanId = (typeof PLANS)[number]["id"];
export type BillingInterval = "monthly" | "yearly";

/** The plan a shop is on when it has none recorded (the operator's default, else free). */
export const FALLBACK_PLAN_ID: PlanId = "free";

export function findPlan(id: string | null | undefined): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The shop's plan; an unknown or missing id counts as the free plan. */
export function planOf(id: string | null | undefined): Plan {
  return findPlan(id) ?? findPlan(FALLBACK_PLAN_ID)!;
}

export function planAllows(planId: string | null | undefined, feature: PlanFeature): boolean {
  return planOf(planId).features.includes(feature);
}

/** The cheapest plan that has the feature (for the upgrade prompt). */
export function cheapestPlanWith(feature: PlanFeature): Plan | undefined {
  return [...PLANS].sort((a, b) => a.monthlyPrice - b.monthlyPrice).find((p) => p.features.includes(feature as never));
}

export function priceOf(plan: Plan, interval: BillingInterval): number {
  return interval === "yearly" ? plan.yearlyPrice : plan.monthlyPrice;
}

export function isPaid(plan: Plan): boolean {
  return plan.monthlyPrice > 0 || plan.yearlyPrice > 0;
}

/**
 * How far a shop is over its plan's limit. Over-limit items stay readable;
 * the first `limit` (oldest) stay editable, the rest are read-only.
 */
export function overLimit(planId: string | null | undefined, limit: PlanLimit, count: number) {
  const max = planOf(planId).limits[limit];
  return { max, count, over: max !== null && count > max, full: max !== null && count >= max };
}

/** The name Shopify shows on the charge, and how the webhook names it back. */
export function subscriptionName(plan: Plan, interval: BillingInterval) {
  return `${plan.id}:${interval}`;
}
