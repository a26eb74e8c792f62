import { getDb } from "../../db.server";
import { safeZone, type DatePreset } from "../../lib/date-presets";
import { analyticsPlan, pendingSalesPlan, rollupViewPlan, type Analytics } from "./dashboard-analytics.server";
import { PAYABLE_SQL } from "../payouts/payable-balance";
import { dialectOf } from "../../db/dialect";
import { allPlans, countRows, mapPlan, runPlan, type Client, type Plan } from "./rollup-sql.server";

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

/**
 * Everything the dashboard shows for one preset: one call per page load, two
 * statements (what the rollup holds with the counts, then every figure).
 */
export async function getDashboardData(
  shop: { id: string; timezone: string; createdAt?: Date },
  preset: DatePreset,
  now = new Date(),
  client: Client = getDb(),
): Promise<DashboardData> {
  const dialect = dialectOf(client);
  // The rollup's state is read once for both the preset and the pending count.
  const [view, counts] = await runPlan(
    client,
    allPlans([rollupViewPlan(dialect, shop.id, safeZone(shop.timezone)), countsPlan(shop.id)]),
  );
  const [analytics, sales] = await runPlan(
    client,
    allPlans([analyticsPlan(dialect, shop, preset, now, view), pendingSalesPlan(shop.id, now, view)]),
  );
  const pending = {
    sales,
    affiliates: counts.affiliates,
    commissions: Math.min(counts.commissions, COUNT_CAP),
    commissionsMore: counts.commissions > COUNT_CAP,
  };
  return { analytics, pending, watermark: view.watermark, hasCampaigns: counts.campaigns > 0 };
}

/** Counts stop here: the dashboard shows "1000+", the list has the exact figure. */
export const COUNT_CAP = 1000;

/**
 * Affiliates waiting for approval, payable commission lines
 * (payouts/payable-balance.ts) and whether there is a campaign. Which lines
 * are in a payout is not in any index (and the write paths should not pay
 * for one), so the commission count reads at most COUNT_CAP + 1 rows.
 */
function countsPlan(shopId: string): Plan<{ affiliates: number; commissions: number; campaigns: number }> {
  return mapPlan(
    allPlans([
      countRows(`SELECT 1 FROM "Affiliate" WHERE "shopId" = ? AND "status" = 'pending'`, [shopId]),
      countRows(`SELECT 1 FROM "Commission" WHERE "shopId" = ? AND ${PAYABLE_SQL} LIMIT ${COUNT_CAP + 1}`, [shopId]),
      countRows(`SELECT 1 FROM "Campaign" WHERE "shopId" = ? LIMIT 1`, [shopId]),
    ]),
    ([affiliates, commissions, campaigns]) => ({ affiliates, commissions, campaigns }),
  );
}
