// Webhook ingest, end to end: N signed orders/create webhooks (each credited
// by coupon to an affiliate with a 3-level MLM chain) are POSTed to the real
// app on SQLite (HMAC check, idempotency, durable event + job), and the clock
// stops when the job worker has committed every order's commissions.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../app/db/migrate.server";
import { sampleOrder } from "../../app/models/shopify/sample-payloads";
import type { BenchResult } from "./run";
import { freePort } from "../support/free-port";
import { lockHoldsIn } from "./lock-holds";

const ROOT = path.resolve(__dirname, "../..");
const SHOP = "bench-store.myshopify.com";
const SECRET = "bench-webhook-secret";
const ORDERS = Number(process.env.BENCH_ORDERS ?? 5000);
// Teams of three (a 3-level chain with its own coupon) the orders are spread
// over: 1 by default (every order credits the same chain); more make each
// event's affiliate a row of its own, as a shop with many affiliates has.
const TEAMS = Math.max(1, Number(process.env.BENCH_ORDERS_TEAMS ?? 1));
const teamCoupon = (team: number) => (team === 0 ? "LEAFA10" : `LEAF${team}X10`);
const CONCURRENCY = 32;
const CONNECTIONS = 32;
// autocannon ships no types; this is the part used here.
const autocannon = require("autocannon") as (
  options: Record<string, unknown>,
) => Promise<{ non2xx: number; errors: number }>;
const TARGET_ORDERS_PER_SECOND = 1500;

export function seed(file: string) {
  const db = new Database(file);
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "pricingPlan", "updatedAt") VALUES ('shop', ?, 'Bench', ?, 'o@bench.example', 'pro', ?)`,
  ).run(SHOP, `https://${SHOP}`, now);
  db.prepare(
    `INSERT INTO "Campaign" (id, "shopId", name, status, "commissionType", "commissionValue", "updatedAt") VALUES ('camp', 'shop', 'Bench', 'active', 'percent', 1000, ?)`,
  ).run(now);
  db.prepare(
    `INSERT INTO "CampaignLevel" (id, "campaignId", level, basis, rate) VALUES ('l2', 'camp', 2, 'percent_of_sale', 300), ('l3', 'camp', 3, 'percent_of_commission', 1000)`,
  ).run();
  const aff = db.prepare(
    `INSERT INTO "Affiliate" (id, "shopId", "campaignId", "parentId", email, "firstName", "lastName", status, "referralCode", "updatedAt") VALUES (?, 'shop', 'camp', ?, ?, ?, 'Bench', 'approved', ?, ?)`,
  );
  aff.run("c", null, "c@bench.example", "C", "TOPC", now);
  aff.run("b", "c", "b@bench.example", "B", "MIDB", now);
  aff.run("a", "b", "a@bench.example", "A", "LEAFA", now);
  db.prepare(`INSERT INTO "Coupon" (id, "shopId", "affiliateId", code) VALUES ('cp', 'shop', 'a', 'LEAFA10')`).run();
  const coupon = db.prepare(`INSERT INTO "Coupon" (id, "shopId", "affiliateId", code) VALUES (?, 'shop', ?, ?)`);
  for (let team = 1; team < TEAMS; team++) {
    aff.run(`c${team}`, null, `c${team}@bench.example`, "C", `TOPC${team}X`, now);
    aff.run(`b${team}`, `c${team}`, `b${team}@bench.example`, "B", `MIDB${team}X`, now);
    aff.run(`a${team}`, `b${team}`, `a${team}@bench.example`, "A", `LEAFA${team}X`, now);
    coupon.run(`cp${team}`, `a${team}`, teamCoupon(team));
  }
  db.close();
}

// What the app and its worker print: the worker's CPU by job type comes last.
const output: string[] = [];

/** The worker's CPU per job type, from the line it prints when it stops (JOB_CPU=...). */
function workerCpuByType(): Record<string, { jobs: number; cpuMs: number }> | null {
  const json = /JOB_CPU=(\{.*\})\s*$/m.exec(output.join(""))?.[1];
  return json ? (JSON.parse(json) as Record<string, { jobs: number; cpuMs: number }>) : null;
}

function startApp(dataDir: string, file: string, port: number): Promise<ChildProcess> {
  const profile = process.env.BENCH_PROFILE_DIR
    ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "app/cli/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${file}`,
      DEMO: "1",
      SEED_DEMO: "0",
      SHOPIFY_API_SECRET: SECRET,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the app did not start within 60 s")), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      if (chunk.toString().includes("is running at")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    child.once("exit", (code) => reject(new Error(`the app exited with ${code}`)));
  });
}

// CPU seconds (user + system) used so far by a process and its children
// that are still alive: the app's web process and its job worker. On a
// shared machine these say more than wall time.
function cpuSeconds(pid: number): { web: number; worker: number } {
  const ticks = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  const read = (p: string) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / ticks };
    } catch {
      return null;
    }
  };
  const web = read(String(pid))?.cpu ?? 0;
  let worker = 0;
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    const stat = read(p);
    if (stat?.ppid === pid) worker += stat.cpu;
  }
  return { web, worker };
}

async function post(url: string, body: string, webhookId: string) {
  const response = await fetch(url, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": SHOP,
      "x-shopify-api-version": "2026-07",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-hmac-sha256": createHmac("sha256", SECRET).update(body).digest("base64"),
    },
  });
  await response.arrayBuffer();
  return response.status;
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function ordersBench(): Promise<BenchResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "orders-bench-"));
  const file = path.join(dataDir, "bench.sqlite");
  await migrate(`file:${file}`);
  seed(file);
  const port = await freePort();
  const app = await startApp(dataDir, file, port);
  const url = `http://127.0.0.1:${port}/webhooks`;
  try {
    const orders = Array.from({ length: ORDERS }, (_, i) => ({
      id: randomUUID(),
      body: sampleOrder({ couponCode: teamCoupon(i % TEAMS), number: i + 1 }).text,
    }));
    // Warm up the server's code paths with a few orders of their own.
    for (let i = 0; i < 20; i++) await post(url, sampleOrder({ couponCode: "LEAFA10" }).text, randomUUID());
    const reader = new Database(file);
    const commissions = () => (reader.prepare(`SELECT count(*) AS n FROM "Commission"`).get() as { n: number }).n;
    const waitFor = async (n: number) => {
      while (commissions() < n) await new Promise((r) => setTimeout(r, 20));
    };
    await waitFor(60);

    // The load generator is autocannon (raw sockets, as in the click bench):
    // each request takes the next prepared body and its signature.
    let index = 0;
    const signed = orders.map((o) => ({
      body: o.body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "x-shopify-shop-domain": SHOP,
        "x-shopify-api-version": "2026-07",
        "x-shopify-webhook-id": o.id,
        "x-shopify-hmac-sha256": createHmac("sha256", SECRET).update(o.body).digest("base64"),
      },
    }));
    const cpuBefore = cpuSeconds(app.pid!);
    const started = performance.now();
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: ORDERS,
      requests: [
        {
          method: "POST",
          setupRequest: (req: Record<string, unknown>) => ({ ...req, ...signed[index++ % signed.length] }),
        },
      ],
    });
    const failures = result.non2xx + result.errors;
    const ingested = performance.now();
    await waitFor(60 + orders.length * 3);
    const done = performance.now();
    const cpuAfter = cpuSeconds(app.pid!);
    // What the orders made (events, their e-mails) follows the sales; the
    // intake lane lets it wait while orders fill the worker's claims.
    const followUps = () =>
      (
        reader
          .prepare(
            `SELECT count(*) AS n FROM "Job" WHERE "status" IN ('queued', 'running') AND "type" IN ('event.dispatch', 'email.send')`,
          )
          .get() as { n: number }
      ).n;
    const followUpUntil = performance.now() + 120_000;
    while (followUps() > 0 && performance.now() < followUpUntil) await new Promise((r) => setTimeout(r, 50));
    const followed = performance.now();
    const followUpsLeft = followUps();

    // Replaying some webhooks changes nothing.
    const before = commissions();
    await pool(orders.slice(0, 200), CONCURRENCY, async (o) => void (await post(url, o.body, o.id)));
    await new Promise((r) => setTimeout(r, 500));
    const after = commissions();
    reader.close();

    const ingestRate = ORDERS / ((ingested - started) / 1000);
    const endToEnd = ORDERS / ((done - started) / 1000);
    console.log(
      `  ${ORDERS} orders/create webhooks, ${CONCURRENCY} concurrent, 3 commission lines each, spread over ${TEAMS} team(s) of 3`,
    );
    console.log(`  ingest (answered 200):      ${ingestRate.toFixed(0)} webhooks/s, ${failures} not 200`);
    console.log(
      `  end to end (all committed): ${endToEnd.toFixed(0)} orders/s (${((done - started) / 1000).toFixed(2)} s)`,
    );
    console.log(
      `  events and e-mails done:    ${((followed - started) / 1000).toFixed(2)} s after the first order (${followUpsLeft} left)`,
    );
    console.log(`  replay of 200 webhooks:     commission rows ${before} -> ${after}`);
    const perOrder = (s: number) => ((s * 1000) / ORDERS).toFixed(3);
    console.log(
      `  CPU per order:              web process ${perOrder(cpuAfter.web - cpuBefore.web)} ms, job worker ${perOrder(cpuAfter.worker - cpuBefore.worker)} ms (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    // The worker prints its CPU by job type when it stops (warm-up and
    // replays included, so a little over the measured orders).
    app.kill("SIGTERM");
    await new Promise((resolve) => {
      app.once("exit", resolve);
      setTimeout(resolve, 15_000).unref();
    });
    const byType = workerCpuByType();
    if (byType) {
      const total = Object.values(byType).reduce((sum, t) => sum + t.cpuMs, 0);
      console.log(`  worker CPU per order by job type (ms; all ${(total / ORDERS).toFixed(3)}):`);
      for (const [type, t] of Object.entries(byType).filter(([, t]) => t.cpuMs / ORDERS >= 0.001))
        console.log(`    ${type.padEnd(26)} ${(t.cpuMs / ORDERS).toFixed(3)}  (${t.jobs} jobs)`);
    }
    // The worker and the webhook writer take turns on SQLite's one write lock: how long the worker held it.
    const byKind = Object.entries(lockHoldsIn(output.join("").split("\n")));
    if (byKind.length) {
      console.log(`  worker's write-lock holds by job type (count, mean ms, longest ms, all ms per order):`);
      for (const [kind, h] of byKind.sort((a, b) => b[1].totalMs - a[1].totalMs).slice(0, 6))
        console.log(
          `    ${kind.padEnd(26)} ${String(h.count).padStart(6)} ${(h.totalMs / h.count).toFixed(2).padStart(7)} ${h.maxMs.toFixed(1).padStart(7)} ${(h.totalMs / ORDERS).toFixed(3).padStart(7)}`,
        );
    }
    // The longest hold over 50 ms of each job type as the worker explained it
    // (time in each statement kind, the commit, and between statements).
    const longest = new Map<string, { ms: number; line: string }>();
    for (const line of output.join("").split("\n")) {
      const hold = /long write-lock hold: (\S+) ([\d.]+) ms/.exec(line);
      if (hold && Number(hold[2]) > (longest.get(hold[1]!)?.ms ?? 0))
        longest.set(hold[1]!, { ms: Number(hold[2]), line: line.replace(/^.*\[db\] /, "") });
    }
    for (const { line } of [...longest.values()].sort((a, b) => b.ms - a.ms)) console.log(`    ${line}`);
    return {
      checks: [
        {
          name: `end to end >= ${TARGET_ORDERS_PER_SECOND} orders/s (measured ${endToEnd.toFixed(0)})`,
          pass: endToEnd >= TARGET_ORDERS_PER_SECOND,
        },
        { name: "every webhook answered 200", pass: failures === 0 },
        { name: "replaying webhooks changes nothing", pass: before === after },
      ],
    };
  } finally {
    app.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    if (process.env.BENCH_KEEP) console.log("  kept", dataDir);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  ordersBench().then((r) => {
    for (const c of r.checks) console.log(`  ${c.pass ? "PASS" : "FAIL"}  ${c.name}`);
    process.exit(0);
  });
}
