import { getDb } from "../../db.server";
import type { DatePreset } from "../../lib/date-presets";
import { countPendingSales, getDashboardAnalytics, readRollupView, type Analytics } from "./dashboard-analytics.server";
import type { Client } from "./rollup-sql.server";

export interface PendingCounts {
  /** Credited sales waiting for the merchant's decision (all time). */
  sales: number;
  /** Affiliates who signed up and wait for approval. */
  affiliates: number;
  /** Approved commission lines not yet in a payout. */
  commissions: number;
}

export interface DashboardData {
  analytics: Analytics;
  pending: PendingCounts;
  /** When the hourly rollup was last complete (null: never built). */
  watermark: Date | null;
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
  const [analytics, sales, affiliates, commissions] = await Promise.all([
    getDashboardAnalytics(shop, preset, now, client, view),
    countPendingSales(shop.id, client, now, view),
    client.affiliate.count({ where: { shopId: shop.id, status: "pending" } }),
    client.commission.count({ where: { shopId: shop.id, status: "approved", payoutId: null } }),
  ]);
  return { analytics, pending: { sales, affiliates, commissions }, watermark: view.watermark };
}
