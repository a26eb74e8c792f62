import { randomUUID } from "node:crypto";
import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf, type Dialect } from "../../db/dialect";
import { num } from "../../db/bulk-sql.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { eventRows } from "../events/emit-event.server";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { formatMoney } from "../../lib/money";
import { localDay } from "../bonuses/bonus-periods";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { decideTier, measureKey, tierReasonText, type Tier, type TierMetric, type TierMove } from "./evaluate-tiers";
import { planAllows } from "../plans/plans";
import { moveAffiliatesIfStill } from "./move-affiliates.server";

// The auto-tier run (docs/decisions/027): measures every affiliate on the
// ladder with one grouped query per distinct (metric, window), decides the
// moves with the pure decideTier, and applies them in bulk: one guarded
// UPDATE per (from, to) pair, a TierRun with its TierMove rows, and an
// affiliate.tier_changed event per move made (the notification e-mail
// subscribes to it). Runs nightly after the shop's midnight, or when the
// merchant applies the preview now; saving the ladder moves nobody.

type Client = Db | Tx;

export interface AutotierSettings {
  enabled: boolean;
  allowDemotion: boolean;
}

export function readAutotierSettings(settingsJson: string): AutotierSettings {
  try {
    const parsed = JSON.parse(settingsJson) as { autotier?: Partial<AutotierSettings> };
    return { enabled: parsed.autotier?.enabled === true, allowDemotion: parsed.autotier?.allowDemotion === true };
  } catch {
    return { enabled: false, allowDemotion: false };
  }
}

const DAY_MS = 86_400_000;

/** One metric over a window, for every affiliate that has any: affiliateId → value. */
async function measure(
  client: Client,
  dialect: Dialect,
  shop: { id: string; currency: string },
  metric: TierMetric,
  since: Date | null,
): Promise<Map<string, number>> {
  const params: unknown[] = [shop.id];
  const window = (column: string) => {
    if (!since) return "";
    params.push(since);
    return ` AND ${column} >= ?`;
  };
  let sql: string;
  if (metric === "sales" || metric === "revenue") {
    const value = metric === "sales" ? "COUNT(*)" : `SUM(o."subtotal" - o."refundedAmount")`;
    sql = `SELECT o."affiliateId" AS "id", ${value} AS "v" FROM "Order" o
            WHERE o."shopId" = ? AND o."affiliateId" IS NOT NULL AND o."status" NOT IN ('denied', 'void')${window(`o."placedAt"`)}
              AND o."currency" = ? GROUP BY o."affiliateId"`;
    params.push(shop.currency);
  } else if (metric === "commission") {
    sql = `SELECT c."affiliateId" AS "id", SUM(c."amount") AS "v" FROM "Commission" c
            WHERE c."shopId" = ? AND c."status" NOT IN ('denied', 'void')${window(`c."createdAt"`)}
              AND c."currency" = ? GROUP BY c."affiliateId"`;
    params.push(shop.currency);
  } else if (metric === "recruits") {
    sql = `SELECT r."parentId" AS "id", COUNT(*) AS "v" FROM "Affiliate" r
            WHERE r."shopId" = ? AND r."parentId" IS NOT NULL AND r."status" = 'approved'${window(`r."createdAt"`)}
            GROUP BY r."parentId"`;
  } else {
    // Downline sales: orders of the affiliate's downline that earned them an
    // upline commission (levels 2 and deeper, as far as the campaign pays).
    sql = `SELECT c."affiliateId" AS "id", COUNT(DISTINCT c."orderId") AS "v" FROM "Commission" c
            WHERE c."shopId" = ? AND c."level" >= 2 AND c."kind" = 'sale' AND c."status" NOT IN ('denied', 'void')${window(`c."createdAt"`)}
            GROUP BY c."affiliateId"`;
  }
  const rows: Record<string, unknown>[] = await client.$queryRawUnsafe(bind(dialect, sql), ...params);
  return new Map(rows.map((r) => [String(r.id), num(r.v)]));
}

export async function loadLadder(client: Client, shopId: string): Promise<Tier[]> {
  const rules = await client.tierRule.findMany({ where: { shopId }, orderBy: { position: "asc" } });
  const campaigns = await client.campaign.findMany({
    where: { shopId, id: { in: rules.map((r) => r.campaignId) } },
    select: { id: true, name: true },
  });
  const name = new Map(campaigns.map((c) => [c.id, c.name]));
  return rules
    .filter((r) => name.has(r.campaignId))
    .map((r) => ({
      position: r.position,
      campaignId: r.campaignId,
      campaignName: name.get(r.campaignId)!,
      metric: r.metric as TierMetric,
      threshold: r.threshold,
      windowDays: r.windowDays,
    }));
}

export interface TierPlan {
  enabled: boolean;
  affiliates: number;
  moves: TierMove[];
}

/**
 * The moves a run would make now, read only: the preview on the autotier
 * screen and the first half of a run. Whether automatic moves are switched
 * on does not change the answer (the preview shows a ladder before it is
 * switched on); a plan without auto-tier moves nobody.
 */
export async function planShopTiers(client: Client, shopId: string, now = new Date()): Promise<TierPlan> {
  const dialect = dialectOf(client);
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { id: true, currency: true, settings: true, pricingPlan: true },
  });
  const settings = readAutotierSettings(shop.settings);
  // Automatic tiers are a plan feature: after a downgrade the ladder is kept but moves nobody.
  if (!planAllows(shop.pricingPlan, "autoTier")) return { enabled: false, affiliates: 0, moves: [] };
  const ladder = await loadLadder(client, shopId);
  if (ladder.length < 2) return { enabled: settings.enabled, affiliates: 0, moves: [] };

  const measures = new Map<string, Map<string, number>>();
  for (const tier of ladder) {
    const key = measureKey(tier);
    if (measures.has(key)) continue;
    const since = tier.windowDays ? new Date(now.getTime() - tier.windowDays * DAY_MS) : null;
    measures.set(key, await measure(client, dialect, shop, tier.metric, since));
  }
  const members = await client.affiliate.findMany({
    where: { shopId, status: "approved", campaignId: { in: ladder.map((t) => t.campaignId) } },
    select: { id: true, campaignId: true },
  });
  const moves: TierMove[] = [];
  for (const member of members) {
    const values: Record<number, number> = {};
    for (const tier of ladder) values[tier.position] = measures.get(measureKey(tier))!.get(member.id) ?? 0;
    const move = decideTier(
      ladder,
      { affiliateId: member.id, campaignId: member.campaignId, values },
      { allowDemotion: settings.allowDemotion, currency: shop.currency },
    );
    if (move) moves.push(move);
  }
  return { enabled: settings.enabled, affiliates: members.length, moves };
}

export interface TierRunResult {
  runId: string;
  affiliates: number;
  /** The moves made: a decision whose affiliate changed campaign meanwhile is dropped. */
  moves: TierMove[];
}

/**
 * A run: decides and applies the moves, recorded as one TierRun with its
 * TierMove rows, and an affiliate.tier_changed event (hence the e-mail,
 * from its durable job after the commit) for each move actually made.
 */
export async function runShopTiers(
  client: Client,
  shopId: string,
  trigger: "schedule" | "manual",
  now = new Date(),
): Promise<TierRunResult> {
  const plan = await planShopTiers(client, shopId, now);
  const runId = randomUUID();
  await client.tierRun.create({ data: { id: runId, shopId, trigger, createdAt: now } });
  const moves = await applyMoves(client, shopId, runId, plan.moves, now);
  await client.tierRun.update({ where: { id: runId }, data: { moved: moves.length } });
  return { runId, affiliates: plan.affiliates, moves };
}

/** A nightly run: nothing when automatic moves are off. */
export async function evaluateShopTiers(client: Client, shopId: string, now = new Date()) {
  const shop = await client.shop.findUniqueOrThrow({ where: { id: shopId }, select: { settings: true } });
  if (!readAutotierSettings(shop.settings).enabled) return null;
  return runShopTiers(client, shopId, "schedule", now);
}

let english: ReturnType<typeof fixedT> | null = null;

/** The reason in English, for the event (outgoing webhooks speak English, ADR 020). */
function englishReason(move: TierMove) {
  english ??= fixedT(DEFAULT_LANGUAGE_INFO, ["Settings"]);
  return tierReasonText(english as never, move, (minor, currency) => formatMoney(minor, { currency }));
}

/** Moves each affiliate guarded by the campaign the decision saw; returns the moves made. */
async function applyMoves(client: Client, shopId: string, runId: string, planned: readonly TierMove[], now: Date) {
  const CHUNK = 500;
  // Compare-and-set on the campaign the decision saw: an affiliate moved by
  // hand meanwhile is not moved again by a stale decision, and is not
  // recorded or e-mailed either.
  const made = await moveAffiliatesIfStill(client, shopId, planned, now, { approvedOnly: true });
  const moves = planned.filter((m) => made.has(m.affiliateId));
  for (let i = 0; i < moves.length; i += CHUNK) {
    const chunk = moves.slice(i, i + CHUNK);
    await client.tierMove.createMany({
      data: chunk.map((m) => ({
        id: randomUUID(),
        shopId,
        runId,
        affiliateId: m.affiliateId,
        fromCampaignId: m.fromCampaignId,
        toCampaignId: m.toCampaignId,
        direction: m.direction,
        metric: m.metric,
        metricValue: m.metricValue,
        threshold: m.threshold,
        reasonKey: m.reasonKey,
        reasonValues: JSON.stringify(m.reasonValues),
        createdAt: now,
      })),
    });
    // In bulk, as emitEvent would one by one: the event rows and their dispatch jobs.
    const { events, jobs } = eventRows(
      shopId,
      "affiliate.tier_changed",
      chunk.map((m) => ({
        affiliateId: m.affiliateId,
        fromCampaignId: m.fromCampaignId,
        toCampaignId: m.toCampaignId,
        direction: m.direction,
        reason: englishReason(m),
        runId,
      })),
      now,
    );
    await client.domainEvent.createMany({ data: events });
    await client.job.createMany({ data: jobs });
  }
  return moves;
}

/** Queues the next daily run, a minute after the shop's next midnight. */
export async function scheduleTierEvaluation(client: Client, shopId: string, now = new Date()) {
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { timezone: true, settings: true },
  });
  if (!readAutotierSettings(shop.settings).enabled) return null;
  const midnight = startOfShopDay(nextDay(localDay(now, shop.timezone)), shop.timezone)!;
  const runAt = new Date(midnight.getTime() + 60_000);
  await enqueueJob(
    client,
    "tier.evaluate",
    { shopId },
    { runAt, uniqueKey: `tier.evaluate:${shopId}:${runAt.toISOString()}` },
  );
  return runAt;
}

export async function runTierEvaluation(client: Client, shopId: string, now = new Date()) {
  const exists = await client.shop.findUnique({ where: { id: shopId }, select: { id: true } });
  if (!exists) return;
  await evaluateShopTiers(client, shopId, now);
  // The chain goes on while automatic moves are on (scheduleTierEvaluation checks).
  await scheduleTierEvaluation(client, shopId, now);
}
