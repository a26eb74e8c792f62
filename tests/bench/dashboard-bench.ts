// `npm run bench:dashboard`: every date preset of the dashboard against the
// large seed (npm run seed:large), N times each, as the merchant gets it: the
// whole logged-in document (GET /admin/dashboard?preset=..., server-rendered
// HTML) from the real app over HTTP, one request at a time. Prints p50/p95
// per preset (and the loader's domain function alone, getDashboardData, for
// comparison) and PASS/FAIL of the document against 50 ms p95.
//
//   LARGE_DATABASE_URL=file:/tmp/affiliate-large/large.sqlite npm run bench:dashboard
//
// `npm run bench` runs it too when BENCH_DASHBOARD=1 and the database exists.
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import { createDb } from "../../app/db/client.server";
import { parseDatabaseUrl } from "../../app/db/database-url";
import { DATE_PRESETS } from "../../app/lib/date-presets";
import { getDashboardData } from "../../app/models/dashboard/dashboard-totals.server";
import { startChild, stopChild } from "./click-bench";
import { processCpuMs } from "./process-cpu";
import type { BenchResult } from "./run";
import { benchAppEnv } from "./bench-demo";

const TARGET_P95_MS = 50;
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 200);
const SHOP = process.env.BENCH_DASHBOARD_SHOP ?? "large-store.myshopify.com";
const ADMIN_EMAIL = process.env.BENCH_DASHBOARD_EMAIL ?? "admin@large-store.example";
// seed:large's default (SEED_LARGE_PASSWORD).
const PASSWORD = process.env.SEED_LARGE_PASSWORD ?? "large-store-admin";

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
  let app: ChildProcess | undefined;
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
    const started = await startChild("app", benchAppEnv(url, { SEED_DEMO: "0" }));
    app = started.child;
    const login = await fetch(`${started.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: PASSWORD }),
      redirect: "manual",
    });
    if (login.status !== 302) throw new Error(`login as ${ADMIN_EMAIL} answered ${login.status}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    console.log(
      `  the document, GET /admin/dashboard?preset=... over HTTP (one at a time):\n  ${"preset".padEnd(12)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)} ${"KB".padStart(8)} ${"cpu ms".padStart(8)}`,
    );
    for (const preset of DATE_PRESETS) {
      const page = `${started.url}/admin/dashboard?preset=${preset}`;
      const get = async () => {
        const res = await fetch(page, { headers: { cookie }, redirect: "manual" });
        const html = await res.text();
        if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
        return html.length;
      };
      for (let i = 0; i < 5; i++) await get();
      const times: number[] = [];
      let size = 0;
      const cpuBefore = processCpuMs(app.pid);
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        size = await get();
        times.push(performance.now() - t0);
      }
      // The app process's CPU per document (its SQLite runs in it too).
      const cpuAfter = processCpuMs(app.pid);
      const cpu = cpuBefore === null || cpuAfter === null ? "" : ((cpuAfter - cpuBefore) / RUNS).toFixed(1);
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(
        `  ${preset.padEnd(12)} ${percentile(times, 50).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${times[times.length - 1]!.toFixed(1).padStart(8)} ${(size / 1024).toFixed(0).padStart(8)} ${cpu.padStart(8)}`,
      );
      checks.push({
        name: `dashboard document ${preset}: p95 ${p95.toFixed(1)} ms over HTTP (target < ${TARGET_P95_MS} ms)`,
        pass: p95 < TARGET_P95_MS,
      });
    }
    await stopChild(app);
    app = undefined;

    console.log(
      `  the loader's domain function alone (getDashboardData, in this process):\n  ${"preset".padEnd(12)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)} ${"cpu ms".padStart(8)}   revenue / sales / clicks`,
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
    }
    return { checks };
  } finally {
    if (app) await stopChild(app);
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
