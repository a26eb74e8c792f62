import { createDb } from "~/db/client.server";
import { offsetSegments } from "~/lib/date-presets";
import { rollupGroups } from "~/models/dashboard/rollup-sql.server";
import { getDashboardAnalytics, readRollupView, countPendingSales } from "~/models/dashboard/dashboard-analytics.server";
async function t(label: string, f: () => Promise<unknown> | unknown, n = 30) {
  await f();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await f(); xs.push(performance.now() - s); }
  xs.sort((a, b) => a - b);
  console.log(label.padEnd(30), "p50", xs[Math.floor(n / 2)]!.toFixed(2), "min", xs[0]!.toFixed(2));
}
async function main() {
  const db = createDb(process.argv[2]!);
  const shop = (await db.shop.findFirst({ where: { domain: "large-store.myshopify.com" } }))!;
  const now = new Date();
  const h1 = Math.floor(now.getTime() / 3.6e6) - 1;
  const h0 = h1 - 17520;
  const segs = offsetSegments(shop.timezone, h0, h1);
  await t("select 1", () => db.$queryRawUnsafe("SELECT 1"));
  await t("rollupGroups 2y by day", () => rollupGroups(db, shop.id, h0, h1, { minutes: 1440, segments: segs }));
  await t("rollupGroups 2y 1 seg", () => rollupGroups(db, shop.id, h0, h1, { minutes: 1440, segments: [segs[0]!] }));
  await t("rollupGroups 1y by day", () => rollupGroups(db, shop.id, h1 - 8760, h1, { minutes: 1440, segments: segs.slice(-3) }));
  const view = await readRollupView(db, shop.id);
  await t("readRollupView", () => readRollupView(db, shop.id));
  await t("analytics all", () => getDashboardAnalytics(shop, "all", now, db, view));
  await t("analytics today", () => getDashboardAnalytics(shop, "today", now, db, view));
  await t("pending", () => countPendingSales(shop.id, db, now, view));
}
main();
