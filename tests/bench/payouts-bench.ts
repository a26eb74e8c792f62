// Pending payouts for a whole shop: 10,000 affiliates with 1M approved
// commission lines (refund lines included) on SQLite, one pending payout per
// affiliate kept by refreshPendingPayouts (what auto-pay and the Payouts list
// run). Each measurement runs in a child process on a fresh copy of the
// seeded file, so the time and the peak memory are the refresh's; the
// baseline is one grouped read of the same lines in the same kind of
// process. A pending payout holds no lines (ADR 058): they join it when it
// leaves pending, so the bench also times one Pay of all 10,000 payouts (a
// manual batch), where the million lines are written.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../app/db/migrate.server";
import type { BenchResult } from "./run";
import { benchAppEnv } from "./bench-demo";

const ROOT = path.resolve(__dirname, "../..");
const AFFILIATES = Number(process.env.BENCH_PAYOUT_AFFILIATES ?? 10_000);
const LINES = Number(process.env.BENCH_PAYOUT_LINES ?? 1_000_000);
const LINES_PER_ORDER = 10;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const TARGET_SECONDS = 5;
const TARGET_MB = 300;
// Nine sale lines of 1000 and one refund line of -150 per ten (seed below).
const EXPECTED_TOTAL = Array.from({ length: LINES }, (_, i) =>
  i % LINES_PER_ORDER === LINES_PER_ORDER - 1 ? -150 : 1000,
).reduce((a, b) => a + b, 0);

function seed(file: string) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "pricingPlan", "updatedAt") VALUES ('shop', 'bench-pay.myshopify.com', 'Bench', 'https://bench-pay.myshopify.com', 'o@bench.example', 'pro', ?)`,
  ).run(now);
  db.prepare(
    `INSERT INTO "Campaign" (id, "shopId", name, status, "commissionType", "commissionValue", "updatedAt") VALUES ('camp', 'shop', 'Bench', 'active', 'percent', 1000, ?)`,
  ).run(now);
  const aff = db.prepare(
    `INSERT INTO "Affiliate" (id, "shopId", "campaignId", email, "firstName", "lastName", status, "referralCode", "updatedAt") VALUES (?, 'shop', 'camp', ?, 'A', 'Bench', 'approved', ?, ?)`,
  );
  const order = db.prepare(
    `INSERT INTO "Order" (id, "shopId", "shopifyGid", name, currency, subtotal, total, status, "affiliateId", "placedAt", "createdAt", "updatedAt") VALUES (?, 'shop', ?, ?, 'USD', 10000, 11000, 'approved', ?, ?, ?, ?)`,
  );
  const line = db.prepare(
    `INSERT INTO "Commission" (id, "shopId", "orderId", "affiliateId", kind, "sourceRef", amount, currency, status, "createdAt", "updatedAt") VALUES (?, 'shop', ?, ?, ?, ?, ?, 'USD', 'approved', ?, ?)`,
  );
  db.transaction(() => {
    for (let a = 0; a < AFFILIATES; a++) aff.run(`a${a}`, `a${a}@bench.example`, `A${a}`, now);
    const orders = Math.ceil(LINES / LINES_PER_ORDER);
    for (let o = 0; o < orders; o++) {
      const affiliateId = `a${o % AFFILIATES}`;
      order.run(`o${o}`, `gid://shopify/Order/${o}`, `#${o}`, affiliateId, now, now, now);
      for (let l = 0; l < LINES_PER_ORDER && o * LINES_PER_ORDER + l < LINES; l++) {
        // One line in ten is a refund: the sums include negative lines.
        const refund = l === LINES_PER_ORDER - 1;
        line.run(
          `c${o}-${l}`,
          `o${o}`,
          affiliateId,
          refund ? "refund" : "sale",
          `r${l}`,
          refund ? -150 : 1000,
          now,
          now,
        );
      }
    }
  })();
  db.close();
}

function measure(base: string, dir: string, what: "baseline" | "refresh" | "pay", n: number) {
  const file = path.join(dir, `run-${what}-${n}.db`);
  copyFileSync(base, file);
  const out = execFileSync(process.execPath, ["--import", "tsx", "tests/bench/payouts-refresh-child.ts", what], {
    cwd: ROOT,
    env: benchAppEnv(`file:${file}`),
    encoding: "utf8",
    maxBuffer: 10_000_000,
  });
  rmSync(file, { force: true });
  for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
  return JSON.parse(out.trim().split("\n").pop()!) as {
    seconds: number;
    created: number;
    total: number;
    lines: number;
    maxRssMb: number;
  };
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function payoutsBench(): Promise<BenchResult> {
  const dir = process.env.BENCH_KEEP_DIR ?? mkdtempSync(path.join(os.tmpdir(), "payouts-bench-"));
  try {
    const base = path.join(dir, "seed.db");
    await migrate(`file:${base}`);
    const seedStart = performance.now();
    seed(base);
    console.log(
      `  seeded ${AFFILIATES} affiliates, ${LINES} lines in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const runs = [];
    const baselines = [];
    for (let i = 0; i < REPEATS; i++) {
      baselines.push(measure(base, dir, "baseline", i));
      runs.push(measure(base, dir, "refresh", i));
    }
    const seconds = runs.map((r) => r.seconds);
    const mb = runs.map((r) => r.maxRssMb);
    const ratio = median(seconds) / median(baselines.map((b) => b.seconds));
    console.log(`  refresh: ${spread(seconds)} s (median ${median(seconds).toFixed(2)}), peak ${spread(mb)} MB`);
    console.log(
      `  baseline (one grouped read): ${spread(baselines.map((b) => b.seconds))} s; refresh/baseline ${ratio.toFixed(1)}×`,
    );
    console.log(
      `  created ${runs[0]!.created} pending payouts showing ${runs[0]!.total} in all (lines ${EXPECTED_TOTAL}), holding ${runs[0]!.lines} lines`,
    );
    const pay = measure(base, dir, "pay", 0);
    console.log(
      `  Pay of all ${pay.created} (one manual batch, the lines join their payouts): ${pay.seconds.toFixed(2)} s, ${pay.lines} lines taken, peak ${pay.maxRssMb.toFixed(0)} MB`,
    );
    return {
      checks: [
        {
          name: `every affiliate got one pending payout showing its balance (${runs[0]!.created}/${AFFILIATES})`,
          pass: runs.every((r) => r.created === AFFILIATES && r.total === EXPECTED_TOTAL && r.lines === 0),
        },
        {
          name: `one Pay takes every line into its payout (${pay.lines}/${LINES})`,
          pass: pay.lines === LINES && pay.created === AFFILIATES,
        },
        {
          name: `refresh under ${TARGET_SECONDS} s (median ${median(seconds).toFixed(2)} s)`,
          pass: median(seconds) < TARGET_SECONDS,
        },
        {
          name: `peak memory under ${TARGET_MB} MB (max ${Math.max(...mb).toFixed(0)} MB)`,
          pass: Math.max(...mb) < TARGET_MB,
        },
      ],
    };
  } finally {
    if (!process.env.BENCH_KEEP_DIR) rmSync(dir, { recursive: true, force: true });
  }
}
