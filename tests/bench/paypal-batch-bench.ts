// PayPal Payouts: building and sending one 5,000-item batch to the local fake
// PayPal (tests/support/paypal-fake.ts; Prism is left out, it would measure
// Prism). Each run is a fresh process on a fresh SQLite file; the baseline,
// measured in the same run, is the bare cost of the wire: the same 5,000-item
// body built and POSTed to the same fake by a plain script, with no database.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PaypalFake } from "../support/paypal-fake";
import type { BenchResult } from "./run";

const ROOT = path.resolve(__dirname, "../..");
const RUNS = Number(process.env.BENCH_PAYPAL_RUNS ?? 3);
const ITEMS = 5000;
const run = promisify(execFile);

async function baseline(fake: PaypalFake): Promise<number> {
  const started = process.hrtime.bigint();
  const token = await fetch(`${fake.url}/v1/oauth2/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("baseline:fake-secret").toString("base64")}` },
    body: "grant_type=client_credentials",
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const body = {
    sender_batch_header: { sender_batch_id: `baseline-${Date.now()}-${Math.random()}`, recipient_type: "EMAIL" },
    items: Array.from({ length: ITEMS }, (_, i) => ({
      recipient_type: "EMAIL",
      amount: { currency: "USD", value: "10.00" },
      receiver: `a${i}@pay.example`,
      sender_item_id: `p${i}`,
    })),
  };
  const res = await fetch(`${fake.url}/v1/payments/payouts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`baseline POST answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function paypalBatchBench(): Promise<BenchResult> {
  const fake = new PaypalFake();
  await fake.start();
  const times: number[] = [];
  const memory: number[] = [];
  const bases: number[] = [];
  const before: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "bench-paypal-"));
      try {
        const { stdout } = await run(process.execPath, ["--import", "tsx", "tests/bench/paypal-batch-child.ts"], {
          cwd: ROOT,
          env: {
            ...process.env,
            NODE_ENV: "production",
            DATABASE_URL: `file:${path.join(dir, "bench.sqlite")}`,
            PAYPAL_API_BASE_URL: fake.url,
            PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
            SESSION_SECRET: "bench-session-secret-0123456789",
            SHOPIFY_API_KEY: "bench",
            SHOPIFY_API_SECRET: "bench",
          },
          maxBuffer: 1 << 20,
        });
        const line = JSON.parse(stdout.trim().split("\n").pop()!) as {
          seconds: number;
          maxRssMb: number;
          items: number;
        };
        if (line.items !== ITEMS) throw new Error(`sent ${line.items} items`);
        times.push(line.seconds);
        memory.push(line.maxRssMb);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      bases.push(await baseline(fake));
    }
  } finally {
    await fake.close();
  }
  const sentItems = [...fake.batches.values()]
    .filter((b) => !b.senderBatchId.startsWith("baseline"))
    .map((b) => b.items.length);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const t = median(times);
  const m = Math.max(...memory);
  const b = median(bases);
  console.log(`  ${RUNS} runs of ${ITEMS} items; batches the fake received: ${sentItems.join(", ")}`);
  console.log(`  send: ${times.map((x) => x.toFixed(2)).join(" / ")} s (median ${t.toFixed(2)} s)`);
  console.log(
    `  peak memory of the sending process (seeding included): ${memory.map((x) => x.toFixed(0)).join(" / ")} MB; ` +
      `before the send: ${before.map((x) => x.toFixed(0)).join(" / ")} MB`,
  );
  console.log(
    `  baseline (bare POST of the same body): median ${(b * 1000).toFixed(0)} ms; ratio ${(t / b).toFixed(1)}x`,
  );
  return {
    checks: [
      { name: `5,000-item PayPal batch sent in ${t.toFixed(2)} s (target < 5 s)`, pass: t < 5 },
      { name: `peak memory ${m.toFixed(0)} MB (target < 300 MB)`, pass: m < 300 },
      {
        name: `every run sent one batch of ${ITEMS} items`,
        pass: sentItems.length === RUNS && sentItems.every((n) => n === ITEMS),
      },
    ],
  };
}
