import { z } from "zod";
import type { Tx } from "../../db/transaction";
import { FALLBACK_PLAN_ID, findPlan } from "./plans";

// app_subscriptions/update keeps the shop's plan true (docs/decisions/029):
// a charge the merchant cancels, or Shopify freezes, declines or lets expire,
// takes the shop back to the free plan, and its data stays. An ACTIVE charge
// for a plan of ours makes that the plan (the merchant may close the tab
// before coming back from the confirmation page).

export const appSubscriptionUpdateSchema = z.object({
  app_subscription: z.object({
    admin_graphql_api_id: z.string().max(200),
    name: z.string().max(200),
    status: z.string().max(40),
  }),
});

const ENDED = new Set(["CANCELLED", "DECLINED", "EXPIRED", "FROZEN"]);

export async function applySubscriptionUpdate(
  tx: Tx,
  shop: { id: string },
  body: z.infer<typeof appSubscriptionUpdateSchema>,
) {
  const { admin_graphql_api_id: id, name, status } = body.app_subscription;
  const current = await tx.shop.findUnique({ where: { id: shop.id }, select: { billingSubscriptionId: true } });
  if (!current) return;
  if (status === "ACTIVE") {
    const plan = findPlan(name.split(":")[0]);
    if (!plan) return;
    await tx.shop.update({
      where: { id: shop.id },
      data: { pricingPlan: plan.id, needSelectPlan: null, billingSubscriptionId: id },
    });
    return;
  }
  // A later charge replaced this one: news about the old one change nothing.
  if (!ENDED.has(status) || current.billingSubscriptionId !== id) return;
  await tx.shop.update({
    where: { id: shop.id },
    data: { pricingPlan: FALLBACK_PLAN_ID, billingSubscriptionId: null },
  });
}
