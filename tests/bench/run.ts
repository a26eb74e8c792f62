// `npm run bench`: every benchmark in turn (after a build). Measurements,
// not tests: each prints its numbers and PASS/FAIL per target, and the run
// exits 0 whatever the outcome.
import { adminSsrBench } from "./admin-ssr-bench";
import { bonusTierBench } from "./bonus-tier-bench";
import { clickBench } from "./click-bench";
import { loadBench } from "./load-bench";
import { dashboardBench } from "./dashboard-bench";
import { notificationsBench } from "./notifications-bench";
import { ordersBench } from "./orders-bench";
import { pagesBench } from "./pages-bench";
import { webhooksBench } from "./webhooks-bench";
import { paypalBatchBench } from "./paypal-batch-bench";
import { payoutsBench } from "./payouts-bench";
import { vitalsBench } from "./vitals-bench";

export interface BenchResult {
  checks: { name: string; pass: boolean }[];
}

interface Bench {
  name: string;
  run: () => Promise<BenchResult>;
}

// Add new benchmarks here. BENCH_ONLY=<word> runs those whose name has it.
const all: Bench[] = [
  { name: "clicks: GET /r/{code} vs a bare Node 302", run: clickBench },
  { name: "orders: signed orders/create webhooks, 3-level MLM, end to end", run: ordersBench },
  {
    name: "pages: admin, portal and account documents vs their template-style twin and bare Polaris",
    run: pagesBench,
  },
  {
    name: "vitals: LCP, CLS, blocking time, INP and JavaScript in Chromium, cold and warm, 1× and 4× CPU",
    run: vitalsBench,
  },
  { name: "payouts: pending payouts for 10,000 affiliates from 1M commission lines", run: payoutsBench },
  { name: "notifications: 10,000 e-mails from one bulk approval to a loopback SMTP server", run: notificationsBench },
  { name: "admin SSR by language: English, German, Japanese (and the Arabic portal)", run: adminSsrBench },
  { name: "outgoing webhooks: events delivered, signed, to a loopback receiver", run: webhooksBench },
  { name: "bonuses and auto-tier: 10,000 affiliates over 1M orders", run: bonusTierBench },
  { name: "PayPal: build and send one 5,000-item batch to the fake PayPal", run: paypalBatchBench },
  {
    name: "load: 200 connections of clicks, webhooks, admin pages and payouts on SQLite and PostgreSQL",
    run: loadBench,
  },
  // Needs the large seed (npm run seed:large, minutes and GBs): opt in.
  ...(process.env.BENCH_DASHBOARD === "1"
    ? [{ name: "dashboard: every date preset on 1M orders / 10M clicks", run: dashboardBench }]
    : []),
];
const benches = process.env.BENCH_ONLY ? all.filter((b) => b.name.includes(process.env.BENCH_ONLY!)) : all;

async function main() {
  const summary: string[] = [];
  for (const bench of benches) {
    console.log(`\n== ${bench.name}`);
    try {
      const result = await bench.run();
      for (const check of result.checks) {
        const line = `${check.pass ? "PASS" : "FAIL"}  ${check.name}`;
        console.log(`  ${line}`);
        summary.push(`${line}  [${bench.name}]`);
      }
    } catch (error) {
      console.log(`  FAIL  the benchmark did not complete: ${error instanceof Error ? error.message : String(error)}`);
      summary.push(`FAIL  did not complete  [${bench.name}]`);
    }
  }
  console.log(`\n== summary\n${summary.map((l) => `  ${l}`).join("\n")}\n`);
}

main()
  .catch((error) => console.error(error))
  .finally(() => process.exit(0));
