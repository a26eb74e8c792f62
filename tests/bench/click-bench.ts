// The click benchmark: GET /r/{code} of the real app (SQLite, every click
// committed before its 302) against a bare Node server that only answers 302.
// Targets (issue 17): the app serves at least 0.7 of the bare server's requests/s, with
// p99 latency under 10 ms at 32 connections. A measurement: it reports
// PASS/FAIL and never throws for a missed target.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { seedClickLink } from "../support/click-link";
import type { BenchResult } from "./run";
import { benchAppEnv } from "./bench-demo";
import { processCpuMs } from "./process-cpu";

// autocannon ships no types; this is the part we use.
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
  errors: number;
  timeouts: number;
  duration: number;
}
interface CannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  pipelining?: number;
  requests?: {
    method: string;
    path: string;
    onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
  }[];
}
const autocannon = require("autocannon") as (options: CannonOptions) => Promise<CannonResult>;

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
const ROUNDS = 2;
const VERIFY_REQUESTS = 3200;
const CODE = "BENCH";
// The link as the app hands it out: it names its shop.
const CLICK_PATH = `/r/bench-shop/${CODE.toLowerCase()}?to=%2Fproducts%2Fbench-shirt%3Fvariant%3D1`;
const ROOT = path.resolve(__dirname, "../..");

export function startChild(
  mode: "app" | "bare" | "polaris" | "twin",
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_PROFILE_DIR=<dir>: a V8 CPU profile of the app's server (written when it stops).
  const profile =
    process.env.BENCH_PROFILE_DIR && mode === "app"
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
  const child = spawn(
    process.execPath,
    [...profile, "--import", "tsx", path.join(__dirname, "bench-servers.ts"), mode],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split("\n")[0];
      if (buffer.includes("\n")) {
        child.stdout!.off("data", onData);
        try {
          const { port } = JSON.parse(line!) as { port: number };
          resolve({ child, url: `http://127.0.0.1:${port}` });
        } catch {
          reject(new Error(`${mode} server said: ${buffer}`));
        }
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

interface Combined {
  rps: number;
  total: number;
  seconds: number;
  /** The worst round's p99. */
  p99: number;
  ok: number;
  bad: number;
}

function combine(runs: CannonResult[]): Combined {
  const total = runs.reduce((n, r) => n + r.requests.total, 0);
  const seconds = runs.reduce((n, r) => n + r.duration, 0);
  return {
    rps: total / seconds,
    total,
    seconds,
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    ok: runs.reduce((n, r) => n + r["3xx"], 0),
    bad: runs.reduce((n, r) => n + r["2xx"] + r["4xx"] + r["5xx"] + r.errors + r.timeouts, 0),
  };
}

async function load(url: string, seconds: number): Promise<CannonResult> {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
}

export async function clickBench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "click-bench-"));
  const dbFile = path.join(dir, "bench.sqlite");
  const databaseUrl = `file:${dbFile}`;
  const children: ChildProcess[] = [];
  let reader: Database.Database | undefined;
  try {
    await seedClickLink(databaseUrl, CODE, "Bench shop");

    const env = benchAppEnv(databaseUrl);
    const bare = await startChild("bare", env);
    children.push(bare.child);
    const app = await startChild("app", env);
    children.push(app.child);

    reader = new Database(dbFile, { readonly: true });
    const countClicks = reader.prepare("SELECT count(*) AS n FROM Click");
    const clicks = () => (countClicks.get() as { n: number }).n;
    const hasClick = reader.prepare("SELECT 1 FROM Click WHERE clickId = ?").pluck();

    // A first request checks the app answers what we expect before loading it.
    const probe = await fetch(app.url + CLICK_PATH, { redirect: "manual" });
    if (probe.status !== 302 || !/_aff_click=/.test(probe.headers.get("location") ?? "")) {
      throw new Error(`the app answered ${probe.status} ${probe.headers.get("location")} to ${CLICK_PATH}`);
    }

    // The machine may be shared (other jobs come and go), so the two servers
    // are measured in alternating rounds: a drift in background load hits
    // both alike instead of whichever happened to run second.
    const roundSeconds = DURATION_S / ROUNDS;
    console.log(
      `  warm-up ${WARMUP_S} s each, then ${ROUNDS} alternating rounds of ${roundSeconds} s per server at ${CONNECTIONS} connections`,
    );
    await load(bare.url, WARMUP_S);
    await load(app.url + CLICK_PATH, WARMUP_S);
    const bareRuns: CannonResult[] = [];
    const appRuns: CannonResult[] = [];
    let committed = 0;
    // CPU the app process spent per answered click: steadier than requests/s
    // when other work shares the machine.
    let appCpuMs = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await load(bare.url, roundSeconds);
      const before = clicks();
      const cpuBefore = processCpuMs(app.child.pid);
      const a = await load(app.url + CLICK_PATH, roundSeconds);
      const cpuAfter = processCpuMs(app.child.pid);
      if (cpuBefore !== null && cpuAfter !== null) appCpuMs += cpuAfter - cpuBefore;
      // Requests cut off when a run stops may have committed without their
      // 302 being counted; give them a moment to land.
      await new Promise((r) => setTimeout(r, 300));
      committed += clicks() - before;
      bareRuns.push(b);
      appRuns.push(a);
      console.log(
        `  round ${round}: bare ${fmt(b.requests.average)} req/s (p99 ${b.latency.p99} ms), app ${fmt(a.requests.average)} req/s (p99 ${a.latency.p99} ms)`,
      );
    }
    const bareRun = combine(bareRuns);
    const appRun = combine(appRuns);

    // Verification pass: a fixed number of requests (none cut off); each
    // click id in a Location must already be in the database when its 302
    // arrives, and the rows added must equal the responses exactly.
    let missing = 0;
    let seen = 0;
    const beforeVerify = clicks();
    const verify = await autocannon({
      url: app.url,
      connections: CONNECTIONS,
      amount: VERIFY_REQUESTS,
      requests: [
        {
          method: "GET",
          path: CLICK_PATH,
          onResponse: (status, _body, _context, headers) => {
            if (status !== 302) return;
            seen++;
            const id = /[?&]_aff_click=([A-Za-z0-9_-]+)/.exec(headers.location ?? headers.Location ?? "")?.[1];
            if (!id || !hasClick.get(id)) missing++;
          },
        },
      ],
    });
    const verifyRows = clicks() - beforeVerify;

    if (appCpuMs > 0)
      console.log(
        `  app CPU per click          ${((appCpuMs * 1000) / appRun.total).toFixed(1)} µs (web process, user + system)`,
      );
    const ratio = appRun.rps / bareRun.rps;
    const appOk = appRun.ok;
    const appBad = appRun.bad;
    const checks = [
      { name: `app/bare requests per second ${ratio.toFixed(3)} >= 0.7`, pass: ratio >= 0.7 },
      { name: `app p99 ${appRun.p99} ms < 10 ms (worst round)`, pass: appRun.p99 < 10 },
      { name: `app answered only 302s (${fmt(appBad)} other responses or errors)`, pass: appBad === 0 },
      {
        name: `every 302 committed: ${fmt(committed)} rows for ${fmt(appOk)} 302s (${fmt(committed - appOk)} more: requests cut off in flight at the end)`,
        pass: committed >= appOk && committed - appOk <= CONNECTIONS * ROUNDS,
      },
      {
        name: `verification pass: ${fmt(seen - missing)}/${fmt(VERIFY_REQUESTS)} click ids in the database when their 302 arrived, ${fmt(verifyRows)} rows added`,
        pass:
          missing === 0 &&
          seen === VERIFY_REQUESTS &&
          verifyRows === VERIFY_REQUESTS &&
          verify["3xx"] === VERIFY_REQUESTS,
      },
    ];

    const row = (label: string, r: Combined) =>
      `  ${label.padEnd(26)} ${fmt(r.rps).padStart(8)} req/s   p99 ${String(r.p99).padStart(3)} ms   (${fmt(r.total)} requests in ${r.seconds.toFixed(1)} s)`;
    console.log(row("bare Node 302", bareRun));
    console.log(row("app GET /r/{code} (SQLite)", appRun));
    console.log(`  ratio app/bare             ${ratio.toFixed(3)}`);
    return { checks };
  } finally {
    reader?.close();
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  }
}
