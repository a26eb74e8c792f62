import { createDb } from "~/db/client.server";
import { presetRange, offsetSegments, periodKeys } from "~/lib/date-presets";
import { rollupGroups, liveHours, changedOrderHours } from "~/models/dashboard/rollup-sql.server";
import { getDashboardAnalytics, countPendingSales, readRollupView, firstActivity } from "~/models/dashboard/dashboard-analytics.server";
async function t(label: string, f: () => Promise<unknown> | unknown, n = 20) {
  await f();
  const s = performance.now();
  for (let i = 0; i < n; i++) await f();
  console.log(label.padEnd(30), ((performance.now() - s) / n).toFixed(2), "ms");
}
async function main() {
  const db = createDb(process.argv[2]!);
  const shop = (await db.shop.findFirst())!;
  const now = new Date();
  const r = presetRange("lastYear", shop.timezone, now);
  const h0 = Math.ceil(r.start.getTime() / 3.6e6), h1 = Math.floor(r.end.getTime() / 3.6e6);
  await t("raw select 1", () => db.$queryRawUnsafe("SELECT 1"));
  await t("periodKeys year", () => periodKeys(r, shop.timezone, "day"));
  await t("offsetSegments year", () => offsetSegments(shop.timezone, h0, h1));
  const segs = offsetSegments(shop.timezone, h0, h1);
  await t("rollupGroups year", () => rollupGroups(db, shop.id, h0, h1, { minutes: 1440, segments: segs }));
  await t("rollupGroups all 1 group", () => rollupGroups(db, shop.id, 0, h1, { minutes: 1e9, segments: [{ fromHour: 0, offsetMinutes: 0 }] }));
  await t("liveHours 1h", () => liveHours(db, shop.id, new Date(now.getTime() - 3.6e6), now));
  await t("liveHours orders 1y fut", () => liveHours(db, shop.id, new Date(now.getTime() - 3.6e6), new Date(now.getTime() + 366 * 864e5), { clicks: false, orders: true }));
  await t("changedOrderHours", () => changedOrderHours(db, shop.id, new Date(now.getTime() - 3.6e6 * 2)));
  await t("readRollupView", () => readRollupView(db, shop.id));
  await t("firstActivity", () => firstActivity(db, shop.id));
  await t("analytics lastYear", () => getDashboardAnalytics(shop, "lastYear", now, db));
  await t("analytics today", () => getDashboardAnalytics(shop, "today", now, db));
  await t("analytics all", () => getDashboardAnalytics(shop, "all", now, db));
  await t("pending sales", () => countPendingSales(shop.id, db, now));
  await t("pending commissions", () => db.commission.count({ where: { shopId: shop.id, status: "approved", payoutId: null } }));
  await t("pending affiliates", () => db.affiliate.count({ where: { shopId: shop.id, status: "pending" } }));
}
main();
