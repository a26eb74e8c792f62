import { getDb } from "../../db.server";
import type { DatePreset } from "../../lib/date-presets";
import { countPendingSales, getDashboardAnalytics, readRollupView, type Analytics } from "./dashboard-analytics.server";
import { PAYABLE_SQL } from "../payouts/payable-balance";
import { dialectOf, num, type Client } from "./rollup-sql.server";

export interface PendingCounts {
  /** Credited sales waiting for the merchant's decision (all time). */
  sales: number;
  /** Affiliates who signed up and wait for approval. */
  affiliates: number;
  /** Approved commission lines not yet in a payout, counted up to COUNT_CAP (shown as "1000+"). */
  commissions: number;
  /** More than `commissions` wait (the count stopped at the cap). */
  commissionsMore: boolean;
}

export interface DashboardData {
  analytics: Analytics;
  pending: PendingCounts;
  /** When the hourly rollup was last complete (null: never built). */
  watermark: Date | null;
  /** Whether the shop has a campaign yet (the welcome banner asks for a first one). */
  hasCampaigns: boolean;
}

/** Everything the dashboard shows for one preset: one call per page load. */
export async function getDashboardData(
  shop: { id: string; timezone: string; createdAt?: Date },
  preset: DatePreset,
  now = new Date(),
  client: Client = getDb(),
): Promise<DashboardData> {
  // The rollup's state is read once for both the preset and the pending count.
  const view = await readRollupView(client, shop.id);
  const [analytics, sales, affiliates, commissions, campaign] = await Promise.all([
    getDashboardAnalytics(shop, preset, now, client, view),
    countPendingSales(shop.id, client, now, view),
    client.affiliate.count({ where: { shopId: shop.id, status: "pending" } }),
    countAwaitingPayment(client, shop.id),
    client.campaign.findFirst({ where: { shopId: shop.id }, select: { id: true } }),
  ]);
  const pending = {
    sales,
    affiliates,
    commissions: Math.min(commissions, COUNT_CAP),
    commissionsMore: commissions > COUNT_CAP,
  };
  return { analytics, pending, watermark: view.watermark, hasCampaigns: campaign !== null };
}

/** Counts stop here: the dashboard shows "1000+", the list has the exact figure. */
export const COUNT_CAP = 1000;

/**
 * Payable commission lines (payouts/payable-balance.ts). Which lines are in a payout
 * is not in any index (and the write paths should not pay for one), so the
 * count reads at most COUNT_CAP + 1 rows.
 */
async function countAwaitingPayment(client: Client, shopId: string): Promise<number> {
  const dialect = dialectOf(client);
  const sql = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM "Commission" WHERE "shopId" = ${dialect === "sqlite" ? "?" : "$1"}
    AND ${PAYABLE_SQL} LIMIT ${COUNT_CAP + 1}) t`;
  const rows: { n: unknown }[] = await client.$queryRawUnsafe(sql, shopId);
  return num(rows[0]?.n);
}
