import { planOf, PLAN_FEATURES, type PlanFeature } from "./plans";

// What moving to another plan takes away, said before the merchant confirms
// (issue 29): rows over the new limits become read-only (nothing is deleted,
// docs/decisions/029) and features the new plan lacks stop working, with the
// shop's own numbers where they exist. Keys and values, rendered by the page.

export interface ShopUsage {
  campaigns: number;
  affiliates: number;
  /** Campaigns with MLM levels (level 2 and deeper), which stop paying without MLM. */
  mlmCampaigns: number;
}

export interface Consequence {
  key: string;
  values: Record<string, number>;
}

export function downgradeConsequences(
  currentPlanId: string | null,
  targetPlanId: string,
  usage: ShopUsage,
): Consequence[] {
  const current = planOf(currentPlanId);
  const target = planOf(targetPlanId);
  const out: Consequence[] = [];
  const campaignMax = target.limits.campaigns;
  if (campaignMax !== null && usage.campaigns > campaignMax)
    out.push({ key: "campaignsReadOnly", values: { count: usage.campaigns - campaignMax, max: campaignMax } });
  const affiliateMax = target.limits.affiliates;
  if (affiliateMax !== null && usage.affiliates > affiliateMax)
    out.push({ key: "affiliatesReadOnly", values: { count: usage.affiliates - affiliateMax, max: affiliateMax } });
  const lost = PLAN_FEATURES.filter(
    (f: PlanFeature) => current.features.includes(f as never) && !target.features.includes(f as never),
  );
  for (const feature of lost) {
    if (feature === "mlm")
      out.push(
        usage.mlmCampaigns ? { key: "mlm", values: { count: usage.mlmCampaigns } } : { key: "mlmOff", values: {} },
      );
    else out.push({ key: feature, values: {} });
  }
  return out;
}
