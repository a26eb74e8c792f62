import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { findPlan } from "./plans";

/**
 * Puts a shop on a plan and clears the "must select a plan" gate.
 * Standalone shops have no Shopify Billing, so any plan activates directly;
 * embedded shops can take the free plan here, paid ones need Billing.
 */
export async function activatePlan(db: ShopDb, planId: string, mode: "embedded" | "standalone") {
  const shopId = db.$shopId;
  const plan = findPlan(planId);
  if (!plan) throw new AppError("not_found", "This plan does not exist.");
  if (mode === "embedded" && plan.price > 0) {
    throw new AppError(
      "conflict",
      "Paid plans through Shopify Billing are not built yet. Choose the free plan for now.",
    );
  }
  await db.shop.update({ where: { id: shopId }, data: { pricingPlan: plan.id, needSelectPlan: null } });
  return plan;
}
