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

/** Why a move happens, as a message key and its values (rendered by tierReasonText in the reader's language). */
export interface TierReasonValues {
  metric: TierMetric;
  /** 0 = lifetime. */
  windowDays: number;
  /** Minor units for money metrics, a count otherwise. */
  value: number;
  threshold: number;
  /** The tier reached (up) or left (down), 1-based, and its campaign. */
  tier: number;
  campaign: string;
  /** Where the affiliate lands (down only). */
  toTier?: number;
  toCampaign?: string;
  currency: string;
}

export const TIER_REASON_KEYS = { up: "Settings:autotier.reasons.up", down: "Settings:autotier.reasons.down" } as const;

export interface TierMove {
  affiliateId: string;
  fromCampaignId: string;
  toCampaignId: string;
  direction: "up" | "down";
  metric: TierMetric;
  metricValue: number;
  threshold: number;
  reasonKey: string;
  reasonValues: TierReasonValues;
}

/** The key of a tier's measure: tiers sharing metric and window share one query. */
export function measureKey(tier: Pick<Tier, "metric" | "windowDays">) {
  return `${tier.metric}:${tier.windowDays}`;
}

/** Where an affiliate belongs, and the move to get there (or null). */
export function decideTier(
  ladder: readonly Tier[],
  standing: TierStanding,
  options: { allowDemotion: boolean; currency: string },
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
  const reasonValues: TierReasonValues = {
    metric: reasonTier.metric,
    windowDays: reasonTier.windowDays,
    value,
    threshold: reasonTier.threshold,
    tier: (up ? target : current) + 1,
    campaign: reasonTier.campaignName,
    ...(up ? {} : { toTier: target + 1, toCampaign: tiers[target]!.campaignName }),
    currency: options.currency,
  };
  return {
    affiliateId: standing.affiliateId,
    fromCampaignId: standing.campaignId,
    toCampaignId: tiers[target]!.campaignId,
    direction: up ? "up" : "down",
    metric: reasonTier.metric,
    metricValue: value,
    threshold: reasonTier.threshold,
    reasonKey: up ? TIER_REASON_KEYS.up : TIER_REASON_KEYS.down,
    reasonValues,
  };
}

/** A ladder's problem as a message key, or null: each campaign may hold one tier only. */
export function ladderProblem(ladder: readonly Pick<Tier, "campaignId">[]): string | null {
  const campaigns = new Set(ladder.map((t) => t.campaignId));
  return campaigns.size !== ladder.length ? "Settings:autotier.errors.duplicateCampaign" : null;
}

export const isMoneyMetric = (metric: string) => metric === "revenue" || metric === "commission";

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A move's reason in the reader's language and money format. Moves recorded
 * before reasons were keys carry their English text, shown as it is.
 */
export function tierReasonText(
  t: Translate,
  move: { reason?: string | null; reasonKey?: string | null; reasonValues?: string | TierReasonValues | null },
  money: (minor: number, currency: string) => string,
): string {
  if (!move.reasonKey) return move.reason ?? "";
  let values: TierReasonValues;
  try {
    values = typeof move.reasonValues === "string" ? JSON.parse(move.reasonValues) : move.reasonValues!;
  } catch {
    return move.reason ?? "";
  }
  const show = (v: number) => (isMoneyMetric(values.metric) ? money(v, values.currency) : String(v));
  const window = values.windowDays
    ? t("Settings:autotier.reasons.window", { count: values.windowDays })
    : t("Settings:autotier.reasons.lifetime");
  return t(move.reasonKey, {
    what: t(`Settings:autotier.metrics.${values.metric}`),
    window,
    value: show(values.value),
    threshold: show(values.threshold),
    tier: values.tier,
    campaign: values.campaign,
    toTier: values.toTier,
    toCampaign: values.toCampaign,
    interpolation: { escapeValue: false },
  });
}
