import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { commissionFromStates } from "../commissions/commission-states";
import { AppError } from "../../lib/errors";
import { emitEvents } from "../events/emit-event.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { currentPeriod, type PeriodKind } from "./bonus-periods";
import type { BonusRuleData } from "./bonus-form";
import { scheduleBonusEvaluation } from "./evaluate-bonuses.server";
import { requestPayoutRefresh } from "../payouts/payout-refresh-job.server";

// The merchant's bonus rules: list, read, save, delete, and review of the
// bonus lines a rule earned (pending lines are approved or denied here; an
// approved line is payable like any other commission line).

type Client = Db;

const RULE_FIELDS = {
  id: true,
  name: true,
  kind: true,
  campaignId: true,
  metric: true,
  threshold: true,
  period: true,
  rewardType: true,
  rewardValue: true,
  startsOn: true,
  endsOn: true,
  status: true,
  evaluatedThrough: true,
  createdAt: true,
} as const;

export async function listBonusRules(db: Client) {
  const rules = await db.bonusRule.findMany({ select: RULE_FIELDS, orderBy: { createdAt: "desc" }, take: 500 });
  const totals = await db.commission.groupBy({
    by: ["bonusRuleId", "currency"],
    where: { kind: "bonus", bonusRuleId: { in: rules.map((r) => r.id) }, status: { notIn: ["denied", "void"] } },
    _sum: { amount: true },
    _count: { _all: true },
  });
  const campaigns = await db.campaign.findMany({ select: { id: true, name: true } });
  const campaignName = new Map(campaigns.map((c) => [c.id, c.name]));
  return rules.map((r) => ({
    ...r,
    campaignName: r.campaignId ? (campaignName.get(r.campaignId) ?? null) : null,
    awarded: totals
      .filter((t) => t.bonusRuleId === r.id)
      .map((t) => ({ currency: t.currency, amount: t._sum.amount ?? 0, count: t._count._all })),
  }));
}

export async function getBonusRule(db: Client, id: string) {
  const rule = await db.bonusRule.findUnique({ where: { id }, select: RULE_FIELDS });
  if (!rule) throw new AppError("not_found", "No bonus with this id.");
  return rule;
}

async function checkCampaign(db: Client, campaignId: string | null) {
  if (!campaignId) return;
  const found = await db.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!found)
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { campaign_id: "Bonuses:validation.campaign" },
    });
}

/** Creates or updates a rule and queues the evaluation of whatever has closed already. */
export async function saveBonusRule(db: Client, shopId: string, id: string | null, data: BonusRuleData) {
  await checkCampaign(db, data.campaignId);
  return db.$transaction(async (tx: Tx) => {
    const rule = id
      ? await tx.bonusRule.update({ where: { id }, data, select: { id: true } }).catch(() => {
          throw new AppError("not_found", "No bonus with this id.");
        })
      : await tx.bonusRule.create({ data: { ...data, shopId }, select: { id: true } });
    await scheduleEvaluationNow(tx, shopId);
    return rule;
  });
}

// Now for periods that closed before the rule existed (or changed), then at
// the next close.
async function scheduleEvaluationNow(tx: Tx, shopId: string) {
  await enqueueJob(tx, "bonus.evaluate", { shopId });
  await scheduleBonusEvaluation(tx, shopId);
}

export async function deleteBonusRule(db: Client, id: string) {
  const found = await db.bonusRule.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw new AppError("not_found", "No bonus with this id.");
  // Lines already earned stay (they may be paid); they only lose the link.
  await db.bonusRule.delete({ where: { id } });
}

/** The lines a rule earned, newest first, with the affiliate's name. */
export async function listBonusLines(db: Client, ruleId: string, take = 200) {
  const lines = await db.commission.findMany({
    where: { bonusRuleId: ruleId, kind: "bonus" },
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      amount: true,
      currency: true,
      status: true,
      explanation: true,
      payoutId: true,
      createdAt: true,
      affiliate: { select: { id: true, firstName: true, lastName: true, email: true } },
    },
  });
  return lines;
}

/**
 * Approves or denies pending bonus lines of a rule. Each line moves by its
 * own compare-and-set, so the lines this review moved (and only those) are
 * announced: an approval emits bonus.approved per line (the affiliate's
 * e-mail, notifications/kinds/affiliate-bonus-approved.ts).
 */
export async function reviewBonusLines(db: Client, ruleId: string, ids: string[], decision: "approve" | "deny") {
  const status = decision === "approve" ? "approved" : "denied";
  const from = commissionFromStates(status);
  return db.$transaction(async (tx: Tx) => {
    const guard = { bonusRuleId: ruleId, kind: "bonus", status: { in: from } };
    const candidates = await tx.commission.findMany({
      where: { id: { in: ids }, ...guard },
      select: { id: true, affiliateId: true, amount: true, currency: true },
      orderBy: { id: "asc" },
    });
    const moved: typeof candidates = [];
    // Guarded by the state it expects: a line another review moved first is not moved again.
    for (const line of candidates) {
      const won = await tx.commission.updateMany({ where: { id: line.id, ...guard }, data: { status } });
      if (won.count) moved.push(line);
    }
    if (!moved.length) throw new AppError("conflict", "None of these bonus lines is waiting for review.");
    const rule = await tx.bonusRule.findUnique({ where: { id: ruleId }, select: { shopId: true } });
    if (status === "approved" && rule) {
      // Approved lines are owed: the pending payouts follow (payout-refresh-job.server.ts).
      await requestPayoutRefresh(tx, rule.shopId, `bonus:${ruleId}:${Date.now()}`);
      await emitEvents(
        tx,
        rule.shopId,
        "bonus.approved",
        moved.map((line) => ({
          commissionId: line.id,
          affiliateId: line.affiliateId,
          bonusRuleId: ruleId,
          amount: line.amount,
          currency: line.currency,
        })),
      );
    }
    return { changed: moved.length, status };
  });
}

/** The open period of a rule now, for the admin's "current period" line. */
export function openPeriodOf(
  rule: { kind: string; period: string; startsOn: string; endsOn: string | null },
  timeZone: string,
  now = new Date(),
) {
  const p = currentPeriod(
    { kind: rule.kind as "target", period: rule.period as PeriodKind, startsOn: rule.startsOn, endsOn: rule.endsOn },
    now,
    timeZone,
  );
  return p ? { firstDay: p.firstDay, lastDay: p.lastDay } : null;
}
