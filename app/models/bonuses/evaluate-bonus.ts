import { encodeExplanation } from "../commissions/commission-explanation";
import { percentOf } from "../commissions/calculate-commission";

// What a bonus rule pays an affiliate for one closed period, from the
// affiliate's figures of that period. Pure: the caller gathers the figures
// with one set-based query and writes the lines.
//
// Stacking (docs/decisions/027): target and recurring bonuses are separate
// rewards and always add up. Boosters do not add up with each other: for one
// affiliate and one period only the booster paying the most is credited
// (its key names the affiliate and the period, not the rule, so a second
// booster can never pay for a period that already has one). A booster adds
// to the commissions already credited; it never changes them.

export type BonusKind = "target" | "recurring" | "booster";
export type BonusMetric = "sales" | "revenue" | "commission";

export interface BonusRuleTerms {
  id: string;
  name: string;
  kind: BonusKind;
  metric: BonusMetric;
  /** A count of sales, or minor units. */
  threshold: number;
  rewardType: "fixed" | "percent";
  /** Minor units (fixed) or basis points (percent). */
  rewardValue: number;
}

/** One affiliate's figures over a period: credited sales, their revenue net of refunds, commission earned on them. */
export interface PeriodFigures {
  sales: number;
  revenue: number;
  commission: number;
}

export interface BonusAward {
  ruleId: string;
  affiliateId: string;
  amount: number;
  metricValue: number;
  /** The idempotency key of the line. */
  key: string;
  explanation: string;
}

export interface PeriodLabel {
  key: string;
  firstDay: string;
  lastDay: string;
}

export function metricValue(metric: BonusMetric, figures: PeriodFigures): number {
  return figures[metric];
}

/** The award of one rule for one affiliate and period, or null when nothing is earned. */
export function evaluateBonus(
  rule: BonusRuleTerms,
  affiliateId: string,
  figures: PeriodFigures,
  period: PeriodLabel,
  // Kept for callers: amounts are stored in minor units and the line's currency, worded when shown.
  _money: { currency: string; format?: string | null },
): BonusAward | null {
  const value = metricValue(rule.metric, figures);
  if (value < rule.threshold || value <= 0) return null;
  // Stored as data, written in the reader's language and money format when shown.
  const facts = {
    kind: "bonus" as const,
    bonus: rule.kind,
    rule: rule.name,
    metric: rule.metric,
    value,
    threshold: rule.threshold,
    from: period.firstDay,
    to: period.lastDay,
    reward: rule.rewardType,
    bps: rule.rewardValue,
  };
  const revenue = Math.max(0, figures.revenue);
  if (rule.kind === "booster") {
    // The boost applies to the revenue above the threshold; a booster on a
    // sales count boosts the whole period's revenue once the count is reached.
    const base = rule.metric === "revenue" ? revenue - rule.threshold : revenue;
    const amount = percentOf(Math.max(0, base), rule.rewardValue);
    if (amount <= 0) return null;
    return {
      ruleId: rule.id,
      affiliateId,
      amount,
      metricValue: value,
      key: `booster:${affiliateId}:${period.key}`,
      explanation: encodeExplanation({ ...facts, reward: "percent", base: Math.max(0, base), amount }),
    };
  }
  const amount = rule.rewardType === "fixed" ? rule.rewardValue : percentOf(revenue, rule.rewardValue);
  if (amount <= 0) return null;
  return {
    ruleId: rule.id,
    affiliateId,
    amount,
    metricValue: value,
    key: `${rule.id}:${affiliateId}:${period.key}`,
    explanation: encodeExplanation({ ...facts, base: rule.rewardType === "fixed" ? 0 : revenue, amount }),
  };
}

/** Applies the stacking rule: of several awards with one key (boosters), the largest wins; ties go to the first. */
export function stackAwards(awards: readonly BonusAward[]): BonusAward[] {
  const byKey = new Map<string, BonusAward>();
  for (const award of awards) {
    const held = byKey.get(award.key);
    if (!held || award.amount > held.amount) byKey.set(award.key, award);
  }
  return [...byKey.values()];
}

/** How far an affiliate is toward a rule's threshold, 0..1 (progress bars). */
export function progressOf(rule: Pick<BonusRuleTerms, "metric" | "threshold">, figures: PeriodFigures) {
  const value = metricValue(rule.metric, figures);
  const ratio = rule.threshold <= 0 ? (value > 0 ? 1 : 0) : Math.min(1, Math.max(0, value / rule.threshold));
  return { value, threshold: rule.threshold, ratio, reached: value >= rule.threshold && value > 0 };
}
