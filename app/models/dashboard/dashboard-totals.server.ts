import { getDb } from "../../db.server";

export interface DashboardTotals {
  revenue: number;
  commission: number;
  sales: number;
  clicks: number;
  pendingSales: number;
  pendingAffiliates: number;
  commissionsAwaitingPayment: number;
}

/** All-time totals for one shop (the date presets come with the full dashboard). */
export async function getDashboardTotals(shopId: string): Promise<DashboardTotals> {
  const db = getDb();
  const credited = { shopId, affiliateId: { not: null }, status: { notIn: ["denied", "void"] } };
  const [revenue, commission, sales, clicks, pendingSales, pendingAffiliates, awaiting] = await Promise.all([
    db.order.aggregate({ where: credited, _sum: { subtotal: true } }),
    db.commission.aggregate({ where: { shopId, status: { notIn: ["denied", "void"] } }, _sum: { amount: true } }),
    db.order.count({ where: credited }),
    db.click.count({ where: { shopId } }),
    db.order.count({ where: { shopId, affiliateId: { not: null }, status: "pending" } }),
    db.affiliate.count({ where: { shopId, status: "pending" } }),
    db.commission.count({ where: { shopId, status: "approved", payoutId: null } }),
  ]);
  return {
    revenue: revenue._sum.subtotal ?? 0,
    commission: commission._sum.amount ?? 0,
    sales,
    clicks,
    pendingSales,
    pendingAffiliates,
    commissionsAwaitingPayment: awaiting,
  };
}
