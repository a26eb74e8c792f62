import { randomUUID } from "node:crypto";
import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf, type Dialect } from "../../db/dialect";
import { num } from "../../db/bulk-sql.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { closedPeriods, nextClose, type Period, type PeriodKind, type RuleSchedule } from "./bonus-periods";
import {
  evaluateBonus,
  stackAwards,
  type BonusAward,
  type BonusMetric,
  type BonusRuleTerms,
  type PeriodFigures,
} from "./evaluate-bonus";

// The bonus job (docs/decisions/027): for every active rule of a shop, each
// period that closed since the rule was last evaluated is measured with one
// set-based query per distinct window (all affiliates at once, grouped), the
// pure evaluator decides the awards, and the lines are written in bulk with
// ON CONFLICT DO NOTHING on their bonusKey: evaluating a period twice, or a
// retried job, credits nothing twice.
//
// What counts: orders credited to an approved affiliate, placed in the
// period, in the shop's currency, not denied or voided; revenue is the
// subtotal net of refunds known at evaluation time. A refund after the bonus
// was credited does not take it back: the bonus stands, and the merchant can
// deny the pending line (stated in ADR 027).

type Client = Db | Tx;

export interface BonusRuleRow extends BonusRuleTerms {
  campaignId: string | null;
  period: string;
  startsOn: string;
  endsOn: string | null;
  evaluatedThrough: Date | null;
}

export interface AffiliateFigures extends PeriodFigures {
  affiliateId: string;
  campaignId: string;
}

const COUNTED_ORDER = `o."shopId" = ? AND o."placedAt" >= ? AND o."placedAt" < ? AND o."status" NOT IN ('denied', 'void') AND o."currency" = ?`;

/** Every approved affiliate's figures over [start, end): one grouped query for orders, one for commission when asked. */
export async function periodFigures(
  client: Client,
  shop: { id: string; currency: string },
  start: Date,
  end: Date,
  withCommission: boolean,
  dialect: Dialect = dialectOf(client),
  onlyAffiliateId?: string,
): Promise<AffiliateFigures[]> {
  const one = onlyAffiliateId ? ` AND a."id" = ?` : "";
  const extra = onlyAffiliateId ? [onlyAffiliateId] : [];
  const sales: Record<string, unknown>[] = await client.$queryRawUnsafe(
    bind(
      dialect,
      `SELECT o."affiliateId" AS "affiliateId", a."campaignId" AS "campaignId", COUNT(*) AS "sales",
              SUM(o."subtotal" - o."refundedAmount") AS "revenue"
         FROM "Order" o JOIN "Affiliate" a ON a."id" = o."affiliateId"
        WHERE ${COUNTED_ORDER} AND a."status" = 'approved'${one}
        GROUP BY o."affiliateId", a."campaignId"`,
    ),
    shop.id,
    start,
    end,
    shop.currency,
    ...extra,
  );
  const byId = new Map<string, AffiliateFigures>();
  for (const row of sales) {
    byId.set(String(row.affiliateId), {
      affiliateId: String(row.affiliateId),
      campaignId: String(row.campaignId),
      sales: num(row.sales),
      revenue: num(row.revenue),
      commission: 0,
    });
  }
  if (withCommission) {
    // Commission an affiliate earned on the period's orders, at any level
    // (uplines earn on their downline's orders), bonuses left out.
    const rows: Record<string, unknown>[] = await client.$queryRawUnsafe(
      bind(
        dialect,
        `SELECT c."affiliateId" AS "affiliateId", a."campaignId" AS "campaignId", SUM(c."amount") AS "commission"
           FROM "Commission" c JOIN "Order" o ON o."id" = c."orderId" JOIN "Affiliate" a ON a."id" = c."affiliateId"
          WHERE ${COUNTED_ORDER} AND c."kind" <> 'bonus' AND c."status" NOT IN ('denied', 'void')
            AND c."currency" = o."currency" AND a."status" = 'approved'${one}
          GROUP BY c."affiliateId", a."campaignId"`,
      ),
      shop.id,
      start,
      end,
      shop.currency,
      ...extra,
    );
    for (const row of rows) {
      const id = String(row.affiliateId);
      const held = byId.get(id) ?? {
        affiliateId: id,
        campaignId: String(row.campaignId),
        sales: 0,
        revenue: 0,
        commission: 0,
      };
      held.commission = num(row.commission);
      byId.set(id, held);
    }
  }
  return [...byId.values()];
}

function schedule(rule: BonusRuleRow): RuleSchedule {
  return {
    kind: rule.kind,
    period: rule.period as PeriodKind,
    startsOn: rule.startsOn,
    endsOn: rule.endsOn,
  };
}

/** Writes bonus lines in bulk; a line whose bonusKey exists is skipped. Returns how many were written. */
async function insertAwards(
  client: Client,
  shopId: string,
  currency: string,
  awards: readonly BonusAward[],
  now: Date,
  dialect: Dialect,
): Promise<number> {
  let written = 0;
  const CHUNK = 400;
  for (let i = 0; i < awards.length; i += CHUNK) {
    const chunk = awards.slice(i, i + CHUNK);
    const values = chunk.map(() => `(?, ?, NULL, ?, 1, 'bonus', ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`).join(", ");
    const params = chunk.flatMap((a) => [
      randomUUID(),
      shopId,
      a.affiliateId,
      a.key,
      a.explanation,
      a.amount,
      currency,
      a.ruleId,
      a.key,
      now,
      now,
    ]);
    written += await client.$executeRawUnsafe(
      bind(
        dialect,
        `INSERT INTO "Commission" ("id", "shopId", "orderId", "affiliateId", "level", "kind", "sourceRef", "explanation", "amount", "currency", "status", "bonusRuleId", "bonusKey", "createdAt", "updatedAt")
         VALUES ${values} ON CONFLICT ("bonusKey") DO NOTHING`,
      ),
      ...params,
    );
  }
  return written;
}

export interface EvaluationResult {
  periods: number;
  awards: number;
  created: number;
}

/**
 * Evaluates every active rule's periods closed by `now` and not evaluated yet
 * (all of them again with `{ again: true }`, still without crediting twice).
 */
export async function evaluateShopBonuses(
  client: Client,
  shopId: string,
  now = new Date(),
  options: { again?: boolean } = {},
): Promise<EvaluationResult> {
  const dialect = dialectOf(client);
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { id: true, currency: true, moneyFormat: true, timezone: true },
  });
  const money = { currency: shop.currency, format: shop.moneyFormat };
  const rules = (await client.bonusRule.findMany({
    where: { shopId, status: "active" },
    orderBy: { createdAt: "asc" },
  })) as unknown as BonusRuleRow[];

  // Rules that share a window share its query.
  const windows = new Map<string, { period: Period; rules: BonusRuleRow[] }>();
  const evaluatedThrough = new Map<string, Date>();
  for (const rule of rules) {
    for (const period of closedPeriods(schedule(rule), now, shop.timezone)) {
      if (!options.again && rule.evaluatedThrough && period.end.getTime() <= rule.evaluatedThrough.getTime()) continue;
      const key = `${period.start.toISOString()}|${period.end.toISOString()}|${period.key}`;
      const held = windows.get(key) ?? { period, rules: [] };
      held.rules.push(rule);
      windows.set(key, held);
      evaluatedThrough.set(rule.id, period.end);
    }
  }

  let awards = 0;
  let created = 0;
  for (const { period, rules: windowRules } of windows.values()) {
    const figures = await periodFigures(
      client,
      shop,
      period.start,
      period.end,
      windowRules.some((r) => r.metric === ("commission" satisfies BonusMetric)),
      dialect,
    );
    const candidates: BonusAward[] = [];
    for (const rule of windowRules) {
      for (const f of figures) {
        if (rule.campaignId && f.campaignId !== rule.campaignId) continue;
        const award = evaluateBonus(rule, f.affiliateId, f, period, money);
        if (award) candidates.push(award);
      }
    }
    const stacked = stackAwards(candidates);
    awards += stacked.length;
    created += await insertAwards(client, shop.id, shop.currency, stacked, now, dialect);
  }
  for (const [ruleId, end] of evaluatedThrough) {
    await client.bonusRule.update({ where: { id: ruleId }, data: { evaluatedThrough: end } });
  }
  return { periods: windows.size, awards, created };
}

/** Queues the shop's next evaluation at the next period close (one job per shop and instant). */
export async function scheduleBonusEvaluation(client: Client, shopId: string, now = new Date()) {
  const shop = await client.shop.findUniqueOrThrow({ where: { id: shopId }, select: { timezone: true } });
  const rules = (await client.bonusRule.findMany({
    where: { shopId, status: "active" },
    select: { kind: true, period: true, startsOn: true, endsOn: true },
  })) as RuleSchedule[];
  const at = nextClose(rules, now, shop.timezone);
  if (!at) return null;
  // A minute's grace: orders placed in the last second are stored by then.
  const runAt = new Date(at.getTime() + 60_000);
  await enqueueJob(
    client,
    "bonus.evaluate",
    { shopId },
    { runAt, uniqueKey: `bonus.evaluate:${shopId}:${runAt.toISOString()}` },
  );
  return runAt;
}

/** The job: evaluate what has closed, then queue the next run. */
export async function runBonusEvaluation(client: Client, shopId: string, now = new Date()) {
  const exists = await client.shop.findUnique({ where: { id: shopId }, select: { id: true } });
  if (!exists) return;
  await evaluateShopBonuses(client, shopId, now);
  await scheduleBonusEvaluation(client, shopId, now);
}
