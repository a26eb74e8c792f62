import { randomUUID } from "node:crypto";
import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf, type Dialect } from "../../db/dialect";
import { num } from "../../db/bulk-sql.server";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
import { localDay } from "../bonuses/bonus-periods";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { decideTier, measureKey, type Tier, type TierMetric, type TierMove } from "./evaluate-tiers";
import { planAllows } from "../plans/plans";

// The auto-tier job (docs/decisions/027): measures every affiliate on the
// ladder with one grouped query per distinct (metric, window), decides the
// moves with the pure decideTier, and applies them in bulk: one UPDATE per
// target campaign, the TierMove rows, and an affiliate.tier_changed event per
// move (the notification e-mail subscribes to it). Runs daily after the
// shop's midnight; saving the ladder runs it at once.

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

export interface TierEvaluation {
  affiliates: number;
  moves: TierMove[];
}

/** Decides and applies the moves of a shop's ladder now. */
export async function evaluateShopTiers(client: Client, shopId: string, now = new Date()): Promise<TierEvaluation> {
  const dialect = dialectOf(client);
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { id: true, currency: true, moneyFormat: true, settings: true, pricingPlan: true },
  });
  const settings = readAutotierSettings(shop.settings);
  // Automatic tiers are a plan feature: after a downgrade the ladder is kept but moves nobody.
  if (!planAllows(shop.pricingPlan, "autoTier")) return { affiliates: 0, moves: [] };
  const ladder = await loadLadder(client, shopId);
  if (!settings.enabled || ladder.length < 2) return { affiliates: 0, moves: [] };

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
  const money = { currency: shop.currency, format: shop.moneyFormat };
  const moves: TierMove[] = [];
  for (const member of members) {
    const values: Record<number, number> = {};
    for (const tier of ladder) values[tier.position] = measures.get(measureKey(tier))!.get(member.id) ?? 0;
    const move = decideTier(
      ladder,
      { affiliateId: member.id, campaignId: member.campaignId, values },
      {
        allowDemotion: settings.allowDemotion,
        money,
      },
    );
    if (move) moves.push(move);
  }
  await applyMoves(client, shop.id, moves, now);
  return { affiliates: members.length, moves };
}

async function applyMoves(client: Client, shopId: string, moves: readonly TierMove[], now: Date) {
  const CHUNK = 500;
  const byTarget = new Map<string, TierMove[]>();
  for (const m of moves) byTarget.set(m.toCampaignId, [...(byTarget.get(m.toCampaignId) ?? []), m]);
  for (const [campaignId, group] of byTarget) {
    for (let i = 0; i < group.length; i += CHUNK) {
      const chunk = group.slice(i, i + CHUNK);
      // Guarded by the campaign the decision saw: an affiliate moved by hand
      // meanwhile is not moved again by a stale decision.
      for (const from of new Set(chunk.map((m) => m.fromCampaignId))) {
        await client.affiliate.updateMany({
          where: {
            shopId,
            campaignId: from,
            id: { in: chunk.filter((m) => m.fromCampaignId === from).map((m) => m.affiliateId) },
          },
          data: { campaignId },
        });
      }
    }
  }
  for (let i = 0; i < moves.length; i += CHUNK) {
    const chunk = moves.slice(i, i + CHUNK);
    await client.tierMove.createMany({ data: chunk.map((m) => ({ ...m, id: randomUUID(), shopId, createdAt: now })) });
    const events = chunk.map((m) => ({
      id: randomUUID(),
      shopId,
      type: "affiliate.tier_changed",
      data: JSON.stringify({
        affiliateId: m.affiliateId,
        fromCampaignId: m.fromCampaignId,
        toCampaignId: m.toCampaignId,
        direction: m.direction,
        reason: m.reason,
      }),
      createdAt: now,
    }));
    // In bulk, as emitEvent would one by one: the event rows and their dispatch jobs.
    await client.domainEvent.createMany({ data: events });
    await client.job.createMany({ data: events.map((e) => jobRow("event.dispatch", { eventId: e.id }, { now })) });
  }
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
  await scheduleTierEvaluation(client, shopId, now);
}
