import { json } from "@remix-run/node";
import type { Role } from "../lib/areas";
import { cheapestPlanWith, planAllows, type PlanFeature } from "../models/plans/plans";

// The door's plan check (docs/decisions/029): a feature above the shop's plan
// answers 403 with an upgrade prompt (what is missing, the plan that has it,
// where to choose it), never a 500 and never the page's data.

export interface UpgradeBody {
  error: { code: "forbidden"; message: string };
  upgrade: { feature: PlanFeature; plan: string | null; plansUrl: string | null };
  home: string;
}

export function upgradeRequired(role: Role, feature: PlanFeature) {
  const body: UpgradeBody = {
    error: { code: "forbidden", message: "Your pricing plan does not include this feature. Upgrade to use it." },
    upgrade: {
      feature,
      plan: cheapestPlanWith(feature)?.id ?? null,
      // Plans are the admin's to choose; staff are told to ask.
      plansUrl: role === "admin" ? `/admin/plans?upgrade=${feature}` : null,
    },
    home: `/${role}/dashboard`,
  };
  return json(body, { status: 403 });
}

export function requirePlanFeature(planId: string | null, role: Role, feature: PlanFeature | undefined) {
  if (feature && !planAllows(planId, feature)) throw upgradeRequired(role, feature);
}
