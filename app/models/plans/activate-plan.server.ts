import type { ShopDb } from "../../db/shop-db.server";
import { getConfig } from "../../config.server";
import { AppError } from "../../lib/errors";
import { ACTIVE_SUBSCRIPTIONS, APP_SUBSCRIPTION_CANCEL, APP_SUBSCRIPTION_CREATE } from "../shopify/admin-operations";
import { adminClientFor, type AdminClient } from "../shopify/admin-client.server";
import { findPlan, isPaid, priceOf, subscriptionName, type BillingInterval, type Plan } from "./plans";

// Choosing a plan (docs/decisions/029). Standalone shops have no Shopify
// Billing: any plan activates at once, free of charge. Embedded shops pay
// through Shopify Billing: a paid plan creates a PENDING subscription and the
// merchant approves it on Shopify's confirmation page; the plan changes only
// when Shopify says the charge is ACTIVE (confirmSubscription on return, or
// the app_subscriptions/update webhook).

export type ActivateResult = { kind: "activated"; plan: Plan } | { kind: "confirm"; confirmationUrl: string };

function requirePlan(planId: string): Plan {
  const plan = findPlan(planId);
  if (!plan) throw new AppError("not_found", "This plan does not exist.");
  return plan;
}

async function requireAdmin(domain: string, admin?: AdminClient | null): Promise<AdminClient> {
  const client = admin ?? (await adminClientFor(domain));
  if (!client) throw new AppError("unavailable", "Shopify could not be reached. Try again in a moment.");
  return client;
}

async function setPlan(db: ShopDb, plan: Plan, billingSubscriptionId: string | null) {
  await db.shop.update({
    where: { id: db.$shopId },
    data: { pricingPlan: plan.id, needSelectPlan: null, billingSubscriptionId },
  });
}

/** Where Shopify sends the merchant back after the confirmation page: the /auth plan_id step (spec §2). */
export function billingReturnUrl(domain: string, plan: Plan, interval: BillingInterval, host: string | null) {
  const params = new URLSearchParams({ shop: domain, embedded: "1" });
  if (host) params.set("host", host);
  params.set("interval", interval);
  params.set("plan_id", plan.id);
  return `${getConfig().appUrl}/auth?${params.toString()}`;
}

export async function activatePlan(
  db: ShopDb,
  input: {
    planId: string;
    interval: BillingInterval;
    mode: "embedded" | "standalone";
    domain: string;
    host: string | null;
    currentSubscriptionId: string | null;
  },
  admin?: AdminClient | null,
): Promise<ActivateResult> {
  const plan = requirePlan(input.planId);
  if (input.mode === "standalone") {
    await setPlan(db, plan, null);
    return { kind: "activated", plan };
  }
  const client = await requireAdmin(input.domain, admin);
  if (!isPaid(plan)) {
    // Back to free: the paid charge ends now, the data stays (docs/decisions/029).
    if (input.currentSubscriptionId) {
      const { data } = await client.run(APP_SUBSCRIPTION_CANCEL, { id: input.currentSubscriptionId });
      const errors = data.appSubscriptionCancel.userErrors;
      // Already cancelled or gone at Shopify: nothing left to end.
      if (errors.length && !/cancel|find/i.test(errors[0]!.message))
        throw new AppError("conflict", errors.map((e) => e.message).join(" "));
    }
    await setPlan(db, plan, null);
    return { kind: "activated", plan };
  }
  const { data } = await client.run(APP_SUBSCRIPTION_CREATE, {
    name: subscriptionName(plan, input.interval),
    returnUrl: billingReturnUrl(input.domain, plan, input.interval, input.host),
    trialDays: plan.trialDays,
    test: getConfig().SHOPIFY_BILLING_TEST,
    price: { amount: (priceOf(plan, input.interval) / 100).toFixed(2), currencyCode: "USD" },
    interval: input.interval === "yearly" ? "ANNUAL" : "EVERY_30_DAYS",
  });
  const created = data.appSubscriptionCreate;
  if (created.userErrors.length || !created.confirmationUrl)
    throw new AppError("conflict", created.userErrors.map((e) => e.message).join(" ") || "Shopify refused the charge.");
  return { kind: "confirm", confirmationUrl: created.confirmationUrl };
}

/**
 * The merchant is back from Shopify's confirmation page: the plan changes if
 * Shopify lists an active subscription for it (a declined charge changes
 * nothing). Safe to repeat.
 */
export async function confirmSubscription(
  db: ShopDb,
  input: { planId: string; domain: string; chargeId: string | null },
  admin?: AdminClient | null,
): Promise<Plan> {
  const plan = requirePlan(input.planId);
  const client = await requireAdmin(input.domain, admin);
  const { data } = await client.run(ACTIVE_SUBSCRIPTIONS, {});
  const active = data.currentAppInstallation.activeSubscriptions.filter((s) => s.status === "ACTIVE");
  const wanted = input.chargeId ? `gid://shopify/AppSubscription/${input.chargeId}` : null;
  const match = active.find((s) => (wanted ? s.id === wanted : true) && s.name.split(":")[0] === plan.id);
  if (!match)
    throw new AppError(
      "conflict",
      "Shopify has no approved charge for this plan. Choose the plan again to approve it.",
    );
  await setPlan(db, plan, match.id);
  return plan;
}

/**
 * The operator's default plan (DEFAULT_PLAN) for a standalone shop that has
 * not chosen one: no charge there, so the plan screen can be skipped. Returns
 * the plan set, or null when the shop must still choose.
 */
export async function applyDefaultPlan(db: ShopDb, mode: "embedded" | "standalone"): Promise<string | null> {
  const planId = getConfig().DEFAULT_PLAN;
  if (mode !== "standalone" || !planId) return null;
  await setPlan(db, requirePlan(planId), null);
  return planId;
}
