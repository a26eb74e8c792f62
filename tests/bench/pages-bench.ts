// Pages against their floor: the app's logged-in documents (admin
// dashboard, sales list, affiliates list, the affiliate portal's landing page
// and the affiliate's /account) on the demo shop of `npm start`, against
// - the template-style twin (twin-app.tsx): the dashboard and the sales list
//   written as a minimal Remix app would (one route each, a loader with the
//   same Prisma reads on the same database, the same Polaris tree; no door,
//   no i18n, no session), served by Remix's handler behind Express;
// - bare Polaris screens of the same shape (bare-polaris.tsx: renderToString
//   in a plain Node server, no data, no translations, no router), for
//   reference: what Polaris alone costs;
// in alternating rounds at 1 and 16 connections. Each app page's requests/s
// is divided by its counterparts' measured in the same run (the machine is
// shared, so only ratios of one run mean anything). The affiliates list has
// no twin of its own (its ratio is against the sales list's twin, for
// information); the portal and account pages have neither (theirs are
// against the dashboard's, for information only).
//
// Beside requests/s, the CPU each server process spends per request (from
// /proc) and its ratios: it moves much less with the machine's other load.
//
// Targets: the dashboard and the sales list at least 0.7 of their twin at 16
// connections (issue 33); the dashboard's loader data (?_data=) p50 under
// 5 ms at one connection; a 25-row list's HTML under 100 KB.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { DEMO_AFFILIATE_EMAIL, DEMO_PASSWORD, benchAppEnv } from "./bench-demo";
import { startChild, stopChild } from "./click-bench";
import { processCpuMs } from "./process-cpu";
import type { BenchResult } from "./run";

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  "2xx": number;
  non2xx: number;
  errors: number;
  duration: number;
}
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<CannonResult>;

const ROUND_S = Number(process.env.BENCH_PAGES_ROUND ?? 3);
const ROUNDS = Number(process.env.BENCH_PAGES_ROUNDS ?? 2);
const TARGET_RATIO = 0.7;
const TARGET_LOADER_MS = 5;
const TARGET_LIST_BYTES = 100_000;
const DEMO_SHOP = "demo-store.myshopify.com";

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The twin and bare pages it is compared with. */
  bare: "dashboard" | "sales";
  /** Held to the ratio target: an admin page with a twin of its own. */
  admin: boolean;
}

interface Tally {
  /** CPU ms of the serving process over the runs (null: not on Linux). */
  cpu: number | null;
  requests: number;
  seconds: number;
  p50: number[];
  p99: number;
  bad: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function cookiesOf(res: Response) {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function logInAdmin(base: string) {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: "admin@demo-store.example", password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`admin login answered ${res.status}`);
  return cookiesOf(res);
}

async function logInAffiliate(base: string, handle: string) {
  const res = await fetch(`${base}/portal/${handle}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: DEMO_AFFILIATE_EMAIL, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`affiliate login answered ${res.status}`);
  return cookiesOf(res);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function pagesBench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pages-bench-"));
  const children: ChildProcess[] = [];
  try {
    const env = benchAppEnv(`file:${path.join(dir, "bench.sqlite")}`, { DEMO_SHOP, BENCH_SEED_DEMO: "1" });
    const bare = await startChild("polaris", env);
    children.push(bare.child);
    const app = await startChild("app", env);
    children.push(app.child);
    // After the app: it reads the database the app's process seeded.
    const twin = await startChild("twin", env);
    children.push(twin.child);
    const handle = DEMO_SHOP.replace(".myshopify.com", "");
    const admin = { cookie: await logInAdmin(app.url) };
    const affiliate = { cookie: await logInAffiliate(app.url, handle) };

    const targets: Target[] = [
      { name: "/admin/dashboard", url: `${app.url}/admin/dashboard`, headers: admin, bare: "dashboard", admin: true },
      { name: "/admin/sales", url: `${app.url}/admin/sales`, headers: admin, bare: "sales", admin: true },
      { name: "/admin/affiliates", url: `${app.url}/admin/affiliates`, headers: admin, bare: "sales", admin: false },
      { name: `/portal/${handle}/`, url: `${app.url}/portal/${handle}/`, headers: {}, bare: "dashboard", admin: false },
      { name: "/account", url: `${app.url}/account`, headers: affiliate, bare: "dashboard", admin: false },
    ];
    const bares = {
      dashboard: { name: "bare Polaris dashboard", url: `${bare.url}/dashboard`, headers: {} },
      sales: { name: "bare Polaris list (25 × 7)", url: `${bare.url}/sales`, headers: {} },
    };
    const twins = {
      dashboard: { name: "twin dashboard", url: `${twin.url}/admin/dashboard`, headers: {} },
      sales: { name: "twin sales list", url: `${twin.url}/admin/sales`, headers: {} },
    };

    // Every page once: it must be a 200 HTML document (not a login page).
    const bytes = new Map<string, number>();
    const gzipBytes = new Map<string, number>();
    for (const t of [...targets, ...Object.values(bares), ...Object.values(twins)]) {
      const res = await fetch(t.url, { headers: t.headers, redirect: "manual" });
      const html = await res.text();
      if (res.status !== 200 || !html.startsWith("<!DOCTYPE html>"))
        throw new Error(`${t.name} answered ${res.status} ${res.headers.get("location") ?? ""}`);
      bytes.set(t.url, Buffer.byteLength(html));
      gzipBytes.set(t.url, gzipSync(html).length);
    }

    const tallies = new Map<string, Tally>();
    const pidOf = (url: string) =>
      url.startsWith(bare.url) ? bare.child.pid : url.startsWith(twin.url) ? twin.child.pid : app.child.pid;
    const run = async (url: string, headers: Record<string, string>, connections: number, seconds: number) => {
      const cpuBefore = processCpuMs(pidOf(url));
      const r = await autocannon({ url, headers, connections, duration: seconds });
      const cpuAfter = processCpuMs(pidOf(url));
      const key = `${url} ${connections}`;
      const t = tallies.get(key) ?? { cpu: 0, requests: 0, seconds: 0, p50: [], p99: 0, bad: 0 };
      t.cpu = t.cpu === null || cpuBefore === null || cpuAfter === null ? null : t.cpu + cpuAfter - cpuBefore;
      t.requests += r.requests.total;
      t.seconds += r.duration;
      t.p50.push(r.latency.p50);
      t.p99 = Math.max(t.p99, r.latency.p99);
      t.bad += r.non2xx + r.errors;
      tallies.set(key, t);
    };
    for (const t of [...targets, ...Object.values(bares), ...Object.values(twins)]) {
      await autocannon({ url: t.url, headers: t.headers, connections: 4, duration: 1 }); // warm-up
    }
    console.log(
      `  ${ROUNDS} rounds of ${ROUND_S} s per page and connection count; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${os.cpus().length} CPUs`,
    );
    // Alternating: each bare page and twin, then the app pages compared with
    // them, so a drift in the machine's load hits all alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of [1, 16]) {
        for (const kind of ["dashboard", "sales"] as const) {
          await run(bares[kind].url, {}, connections, ROUND_S);
          await run(twins[kind].url, {}, connections, ROUND_S);
          for (const t of targets.filter((x) => x.bare === kind)) await run(t.url, t.headers, connections, ROUND_S);
        }
      }
    }

    // The dashboard's loader alone, as the browser asks for it on a client
    // navigation (?_data=), one connection.
    const loaderUrl = `${app.url}/admin/dashboard?_data=${encodeURIComponent("routes/$role.dashboard")}`;
    const loaderRes = await fetch(loaderUrl, { headers: admin });
    if (loaderRes.status !== 200) throw new Error(`dashboard ?_data= answered ${loaderRes.status}`);
    await autocannon({ url: loaderUrl, headers: admin, connections: 1, duration: 1 });
    const loader = await autocannon({ url: loaderUrl, headers: admin, connections: 1, duration: ROUND_S });

    const rps = (url: string, c: number) => {
      const t = tallies.get(`${url} ${c}`)!;
      return t.requests / t.seconds;
    };
    const checks: BenchResult["checks"] = [];
    // Ratios in the sense of "the app's page over its counterpart's":
    // requests/s divided, CPU per request inverted (counterpart's over the
    // app's), so 1.00 is as cheap as the counterpart and 0.50 twice its cost.
    const ratioCols = (cols: string[]) => cols.map((c) => c.padStart(6)).join(" ");
    console.log(
      `  ${"page".padEnd(28)} ${"c=1 req/s".padStart(10)} ${"p50/p99 ms".padStart(11)} ${ratioCols(["×twin", "×bare"])}   ${"c=16 req/s".padStart(10)} ${"p50/p99 ms".padStart(11)} ${ratioCols(["×twin", "×bare"])}   ${"HTML bytes".padStart(10)} ${"gzip".padStart(7)}   ${"CPU ms/doc".padStart(10)} ${ratioCols(["×twin", "×bare"])}`,
    );
    const cpuPerRequest = (url: string) => {
      const ts = [1, 16].map((c) => tallies.get(`${url} ${c}`)!);
      if (ts.some((t) => t.cpu === null)) return null;
      return ts.reduce((n, t) => n + t.cpu!, 0) / ts.reduce((n, t) => n + t.requests, 0);
    };
    const line = (name: string, url: string, against: (string | null)[]) => {
      const cpu = cpuPerRequest(url);
      const cpuRatios = against.map((other) => {
        const otherCpu = other ? cpuPerRequest(other) : null;
        return cpu && otherCpu ? (otherCpu / cpu).toFixed(2) : "";
      });
      const cols = [1, 16].map((c) => {
        const t = tallies.get(`${url} ${c}`)!;
        const ratios = against.map((other) => (other ? (rps(url, c) / rps(other, c)).toFixed(2) : ""));
        return `${fmt(rps(url, c)).padStart(10)} ${`${median(t.p50)}/${t.p99}`.padStart(11)} ${ratioCols(ratios)}`;
      });
      console.log(
        `  ${name.padEnd(28)} ${cols.join("   ")}   ${fmt(bytes.get(url)!).padStart(10)} ${fmt(gzipBytes.get(url)!).padStart(7)}   ${(cpu?.toFixed(2) ?? "").padStart(10)} ${ratioCols(cpuRatios)}`,
      );
    };
    for (const kind of ["dashboard", "sales"] as const) {
      line(bares[kind].name, bares[kind].url, [null, null]);
      line(twins[kind].name, twins[kind].url, [null, bares[kind].url]);
      for (const t of targets.filter((x) => x.bare === kind))
        line(`  ${t.name}`, t.url, [twins[kind].url, bares[kind].url]);
    }
    console.log(
      `  dashboard loader (?_data=)   p50 ${loader.latency.p50} ms, p99 ${loader.latency.p99} ms, ${fmt(loader.requests.average)} req/s at 1 connection`,
    );

    for (const t of targets) {
      const bad = tallies.get(`${t.url} 1`)!.bad + tallies.get(`${t.url} 16`)!.bad;
      if (bad) checks.push({ name: `${t.name}: ${bad} answers not 200 or errors`, pass: false });
      if (!t.admin) continue;
      const ratio = rps(t.url, 16) / rps(twins[t.bare].url, 16);
      checks.push({
        name: `${t.name} / ${twins[t.bare].name} at 16 connections ${ratio.toFixed(2)} >= ${TARGET_RATIO}`,
        pass: ratio >= TARGET_RATIO,
      });
    }
    checks.push({
      name: `dashboard loader p50 ${loader.latency.p50} ms < ${TARGET_LOADER_MS} ms (demo data, one connection)`,
      pass: loader.latency.p50 < TARGET_LOADER_MS && loader.non2xx === 0,
    });
    for (const t of targets.filter((x) => x.bare === "sales")) {
      const b = bytes.get(t.url)!;
      checks.push({ name: `${t.name} HTML ${fmt(b)} bytes < ${fmt(TARGET_LIST_BYTES)}`, pass: b < TARGET_LIST_BYTES });
    }
    return { checks };
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  pagesBench()
    .then((result) => {
      for (const check of result.checks) console.log(`  ${check.pass ? "PASS" : "FAIL"}  ${check.name}`);
    })
    .catch((error) => console.error(`  FAIL  ${error instanceof Error ? error.stack : String(error)}`))
    .finally(() => process.exit(0));
}
