import type { Shop } from "../../db/generated/sqlite";
import { AppError } from "../../lib/errors";
import { cheapestPlanWith, planAllows, type PlanFeature } from "../plans/plans";

// The REST API's plan check: the same rule as the admin's door (ADR 029),
// answered as the API's 403 JSON (English, no upgrade screen).
export function requireApiPlanFeature(shop: Pick<Shop, "pricingPlan">, feature: PlanFeature) {
  if (planAllows(shop.pricingPlan, feature)) return;
  const plan = cheapestPlanWith(feature)?.id;
  throw new AppError(
    "forbidden",
    `The shop's pricing plan does not include this feature (${feature})${plan ? `; the ${plan} plan has it` : ""}.`,
  );
}
