// `npm run bench:dashboard`: every date preset of the dashboard, answered by
// the loader's domain function (getDashboardData: tiles, chart series and
// pending counts) against the large seed (npm run seed:large), N times each.
// Prints p50/p95 per preset and PASS/FAIL against 50 ms p95.
//
//   LARGE_DATABASE_URL=file:/tmp/affiliate-large/large.sqlite npm run bench:dashboard
//
// `npm run bench` runs it too when BENCH_DASHBOARD=1 and the database exists.
import { existsSync } from "node:fs";
import os from "node:os";
import { createDb } from "../../app/db/client.server";
import { parseDatabaseUrl } from "../../app/db/database-url";
import { DATE_PRESETS } from "../../app/lib/date-presets";
import { getDashboardData } from "../../app/models/dashboard/dashboard-totals.server";
import type { BenchResult } from "./run";

const TARGET_P95_MS = 50;
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 200);
const SHOP = process.env.BENCH_DASHBOARD_SHOP ?? "large-store.myshopify.com";

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function dashboardBench(): Promise<BenchResult> {
  const url = process.env.LARGE_DATABASE_URL ?? "file:/tmp/affiliate-large/large.sqlite";
  const target = parseDatabaseUrl(url);
  if (target.provider === "sqlite" && !existsSync(target.file)) {
    throw new Error(`no database at ${target.file}: run npm run seed:large first`);
  }
  const db = createDb(url);
  try {
    const shop = await db.shop.findUnique({
      where: { domain: SHOP },
      select: { id: true, timezone: true, createdAt: true },
    });
    if (!shop) throw new Error(`shop ${SHOP} not found in ${url}`);
    const [clicks, orders, affiliates] = await Promise.all([
      db.click.count({ where: { shopId: shop.id } }),
      db.order.count({ where: { shopId: shop.id } }),
      db.affiliate.count({ where: { shopId: shop.id } }),
    ]);
    console.log(
      `  ${url}: ${affiliates} affiliates, ${orders} orders, ${clicks} clicks; zone ${shop.timezone}; ${RUNS} runs per preset`,
    );
    const checks: BenchResult["checks"] = [];
    console.log(
      `  load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${os.cpus().length} CPUs`,
    );
    console.log(
      `  ${"preset".padEnd(12)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)} ${"cpu ms".padStart(8)}   revenue / sales / clicks`,
    );
    for (const preset of DATE_PRESETS) {
      // Warm-up: the first calls compile statements and fill the page cache.
      for (let i = 0; i < 5; i++) await getDashboardData(shop, preset, new Date(), db);
      const times: number[] = [];
      let last;
      // CPU time of this process (the app code and SQLite, which runs in
      // it): what a request costs when the machine is not shared.
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        last = await getDashboardData(shop, preset, new Date(), db);
        times.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000 / RUNS;
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      const t = last!.analytics.totals;
      console.log(
        `  ${preset.padEnd(12)} ${p50.toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${times[times.length - 1]!.toFixed(1).padStart(8)} ${cpuMs.toFixed(1).padStart(8)}   ${t.revenue} / ${t.sales} / ${t.clicks}`,
      );
      checks.push({
        name: `dashboard ${preset}: p95 ${p95.toFixed(1)} ms (target < ${TARGET_P95_MS} ms)`,
        pass: p95 < TARGET_P95_MS,
      });
    }
    return { checks };
  } finally {
    await db.$disconnect();
  }
}

if (require.main === module) {
  dashboardBench()
    .then((result) => {
      for (const check of result.checks) console.log(`  ${check.pass ? "PASS" : "FAIL"}  ${check.name}`);
    })
    .catch((error) => console.error(`  FAIL  ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => process.exit(0));
}
