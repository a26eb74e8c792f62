import { formatMoney } from "../../lib/money";

// Auto-tier decisions (docs/decisions/027), pure: the ladder is a list of
// tiers ordered by position (1 = entry tier); each is a campaign with a
// threshold on one metric over the affiliate's lifetime or a rolling window.
// An affiliate on one of the ladder's campaigns belongs in the highest tier
// whose threshold they reach (the entry tier when none). Affiliates on a
// campaign that is not on the ladder are left alone (a private deal stays a
// private deal). A move only changes the affiliate's campaign: commissions
// already credited keep the terms they were computed with.

export const TIER_METRICS = ["sales", "revenue", "commission", "recruits", "downline_sales"] as const;
export type TierMetric = (typeof TIER_METRICS)[number];

export interface Tier {
  position: number;
  campaignId: string;
  campaignName: string;
  metric: TierMetric;
  threshold: number;
  /** 0 = lifetime. */
  windowDays: number;
}

export interface TierStanding {
  affiliateId: string;
  campaignId: string;
  /** The affiliate's value for each tier's metric and window, by tier position. */
  values: Record<number, number>;
}

export interface TierMove {
  affiliateId: string;
  fromCampaignId: string;
  toCampaignId: string;
  direction: "up" | "down";
  metric: TierMetric;
  metricValue: number;
  threshold: number;
  reason: string;
}

const METRIC_WORDS: Record<TierMetric, string> = {
  sales: "Sales",
  revenue: "Revenue",
  commission: "Commission",
  recruits: "Recruits",
  downline_sales: "Downline sales",
};

function describe(tier: Tier, value: number, money: { currency: string; format?: string | null }) {
  const isMoney = tier.metric === "revenue" || tier.metric === "commission";
  const show = (v: number) => (isMoney ? formatMoney(v, money) : String(v));
  const window = tier.windowDays ? `in the last ${tier.windowDays} days` : "over the affiliate's lifetime";
  return { what: `${METRIC_WORDS[tier.metric]} ${window}`, value: show(value), threshold: show(tier.threshold) };
}

/** The key of a tier's measure: tiers sharing metric and window share one query. */
export function measureKey(tier: Pick<Tier, "metric" | "windowDays">) {
  return `${tier.metric}:${tier.windowDays}`;
}

/** Where an affiliate belongs, and the move to get there (or null). */
export function decideTier(
  ladder: readonly Tier[],
  standing: TierStanding,
  options: { allowDemotion: boolean; money: { currency: string; format?: string | null } },
): TierMove | null {
  const tiers = [...ladder].sort((a, b) => a.position - b.position);
  const current = tiers.findIndex((t) => t.campaignId === standing.campaignId);
  if (current < 0 || tiers.length === 0) return null;
  let target = 0;
  for (let i = 1; i < tiers.length; i++) {
    const tier = tiers[i]!;
    if ((standing.values[tier.position] ?? 0) >= tier.threshold) target = i;
  }
  if (target === current) return null;
  if (target < current && !options.allowDemotion) return null;
  const up = target > current;
  // Up: the tier reached explains it; down: the tier left.
  const reasonTier = up ? tiers[target]! : tiers[current]!;
  const value = standing.values[reasonTier.position] ?? 0;
  const d = describe(reasonTier, value, options.money);
  const reason = up
    ? `${d.what}: ${d.value}, reaching the threshold ${d.threshold} of tier ${target + 1} (${reasonTier.campaignName}).`
    : `${d.what}: ${d.value}, below the threshold ${d.threshold} of tier ${current + 1} (${reasonTier.campaignName}); moved to tier ${target + 1} (${tiers[target]!.campaignName}).`;
  return {
    affiliateId: standing.affiliateId,
    fromCampaignId: standing.campaignId,
    toCampaignId: tiers[target]!.campaignId,
    direction: up ? "up" : "down",
    metric: reasonTier.metric,
    metricValue: value,
    threshold: reasonTier.threshold,
    reason,
  };
}

/** A ladder's problem as a message key, or null: each campaign may hold one tier only. */
export function ladderProblem(ladder: readonly Pick<Tier, "campaignId">[]): string | null {
  const campaigns = new Set(ladder.map((t) => t.campaignId));
  return campaigns.size !== ladder.length ? "Settings:autotier.errors.duplicateCampaign" : null;
}
