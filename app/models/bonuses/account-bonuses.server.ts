import type { Db } from "../../db.server";
import { currentPeriod, type PeriodKind } from "./bonus-periods";
import { progressOf, type BonusMetric } from "./evaluate-bonus";
import { periodFigures } from "./evaluate-bonuses.server";

// An affiliate's progress toward each bonus open to them: the current period
// (or the target's window) measured the same way the job will measure it
// when the period closes.

export interface BonusProgress {
  id: string;
  name: string;
  kind: string;
  metric: BonusMetric;
  firstDay: string;
  lastDay: string;
  value: number;
  threshold: number;
  ratio: number;
  reached: boolean;
}

export async function accountBonusProgress(
  db: Db,
  affiliate: { id: string; campaignId: string },
  shop: { id: string; currency: string; timezone: string },
  now = new Date(),
): Promise<BonusProgress[]> {
  const rules = await db.bonusRule.findMany({
    where: { status: "active", OR: [{ campaignId: null }, { campaignId: affiliate.campaignId }] },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
  const out: BonusProgress[] = [];
  for (const rule of rules) {
    const period = currentPeriod(
      { kind: rule.kind as "target", period: rule.period as PeriodKind, startsOn: rule.startsOn, endsOn: rule.endsOn },
      now,
      shop.timezone,
    );
    if (!period || period.start.getTime() > now.getTime()) continue;
    const metric = rule.metric as BonusMetric;
    const [figures] = await periodFigures(
      db,
      shop,
      period.start,
      period.end,
      metric === "commission",
      undefined,
      affiliate.id,
    );
    const progress = progressOf(
      { metric, threshold: rule.threshold },
      figures ?? { sales: 0, revenue: 0, commission: 0 },
    );
    out.push({
      id: rule.id,
      name: rule.name,
      kind: rule.kind,
      metric,
      firstDay: period.firstDay,
      lastDay: period.lastDay,
      ...progress,
    });
  }
  return out;
}
