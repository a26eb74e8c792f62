// Notifications at volume: one bulk approval of N pending affiliates (the
// domain call behind the admin's "Approve" on the list) queues N
// affiliate.approved events; a job worker process (`npm run worker`, as
// `npm start` runs it) turns them into e-mails and delivers them to a real
// SMTP server on loopback (smtp-server, in this process, which accepts and
// counts each message). Meanwhile the app (the production build, a process
// of its own) answers a click and the portal's landing page, one request
// after another, to show whether web requests stay fast during the send.
//
// Measured: how long the approval takes (the request's own work, in this
// process, on the same SQLite file), e-mails delivered per second end to end,
// and the web requests' latency before and during the send.
// BENCH_CPU_PROFILE_DIR=dir writes the worker's CPU profile there (node
// --cpu-prof), to see where the worker's time goes.
import { spawn, type ChildProcess } from "node:child_process";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SMTPServer } from "smtp-server";
import { migrate } from "../../app/db/migrate.server";
import { startChild, stopChild } from "./click-bench";
import { processCpuMs } from "./process-cpu";
import type { BenchResult } from "./run";

const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);
const TARGET_PER_SECOND = 200;
const TARGET_APPROVAL_MS = 1000;
// "The web requests stayed fast": a sequential click or portal page during
// the send answers within this at the 95th percentile.
const TARGET_WEB_P95_MS = 100;
// Delivery stops being watched after this long (the rate is what was delivered by then).
const LIMIT_SECONDS = Number(process.env.BENCH_NOTIFICATIONS_SECONDS ?? 300);
const ROOT = path.resolve(__dirname, "../..");
const HANDLE = "bench-mail";

function seed(file: string) {
  const db = new Database(file);
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "pricingPlan", "updatedAt") VALUES ('shop', '${HANDLE}.myshopify.com', 'Bench', 'https://${HANDLE}.myshopify.com', 'o@bench.example', 'pro', ?)`,
  ).run(now);
  db.prepare(
    `INSERT INTO "Campaign" (id, "shopId", name, status, "isDefault", "updatedAt") VALUES ('camp', 'shop', 'Bench', 'active', 1, ?)`,
  ).run(now);
  const insert = db.prepare(
    `INSERT INTO "Affiliate" (id, "shopId", "campaignId", email, "firstName", "lastName", status, "referralCode", "updatedAt") VALUES (?, 'shop', 'camp', ?, ?, 'Bench', ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < COUNT; i++) insert.run(`a${i}`, `a${i}@bench.example`, `A${i}`, "pending", `CODE${i}`, now);
    // Whose link the web probe clicks (approved before the bench starts).
    insert.run("web", "web@bench.example", "Web", "approved", "WEBPROBE", now);
    // Approved once before the measured approval, as a running server has done.
    insert.run("warm", "warm@bench.example", "Warm", "pending", "WARMUP", now);
  })();
  db.close();
}

/** The worker process of `npm run worker`, with its own event loop (and CPU profile when asked). */
function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : []),
      "--import",
      "tsx",
      path.join(ROOT, "app/cli/worker.ts"),
    ],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      if (!buffer.includes("started")) return;
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve(child);
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the worker exited with ${code}: ${buffer}`)));
  });
}

/** One request after another until stopped; the latency of each (ms) and how many were not answered well. */
function probe(urls: string[]) {
  const latencies: number[] = [];
  let bad = 0;
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      try {
        const res = await fetch(urls[i % urls.length]!, { redirect: "manual" });
        await res.arrayBuffer();
        if (res.status >= 400) bad++;
      } catch {
        bad++;
      }
      latencies.push(performance.now() - started);
      // About 20 requests a second: a visitor's pace, not a load test.
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { latencies, bad };
    },
  };
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const ms = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(0, ...values).toFixed(0)} ms (${values.length} requests)`;

export async function notificationsBench(): Promise<BenchResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "mail-bench-"));
  const file = path.join(dataDir, "bench.sqlite");
  await migrate(`file:${file}`);
  seed(file);
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    // No reverse DNS of 127.0.0.1 (this machine has no resolver to ask).
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const env = {
    NODE_ENV: "production" as const,
    DATABASE_URL: `file:${file}`,
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?pool=true&maxConnections=4`,
    SEED_DEMO: "0",
    SESSION_SECRET: process.env.SESSION_SECRET ?? "bench-session-secret-0123456789",
    SHOPIFY_API_KEY: process.env.SHOPIFY_API_KEY ?? "bench",
    SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET ?? "bench",
    SHOPIFY_APP_URL: "http://127.0.0.1:3000",
    PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  };
  Object.assign(process.env, env);
  const children: ChildProcess[] = [];
  try {
    const { getDb } = await import("../../app/db.server");
    const { shopDb } = await import("../../app/db/shop-db.server");
    const { setAffiliatesStatus } = await import("../../app/models/affiliates/admin-affiliates.server");
    const app = await startChild("app", { ...process.env, ...env });
    children.push(app.child);
    const worker = await startWorker({ ...process.env, ...env });
    children.push(worker);
    const urls = [`${app.url}/r/${HANDLE}/webprobe`, `${app.url}/portal/${HANDLE}/`];
    // Warm: the first requests of a fresh process compile and load what the later ones reuse.
    for (let i = 0; i < 40; i++) {
      const url = urls[i % urls.length]!;
      const res = await fetch(url, { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
    }
    const idleProbe = probe(urls);
    await new Promise((r) => setTimeout(r, 3000));
    const idle = await idleProbe.stop();

    // A running server is warm: its first approval (engine start, code not
    // yet compiled) is not what the measured one costs. Its e-mail is not counted.
    await setAffiliatesStatus(shopDb(getDb(), "shop"), ["warm"], "approve");
    for (let i = 0; i < 200 && received < 1; i++) await new Promise((r) => setTimeout(r, 50));
    received = 0;
    const ids = Array.from({ length: COUNT }, (_, i) => `a${i}`);
    const approvalStart = performance.now();
    const approvalCpu = process.cpuUsage();
    const result = await setAffiliatesStatus(shopDb(getDb(), "shop"), ids, "approve");
    const approvalMs = performance.now() - approvalStart;
    const { user, system } = process.cpuUsage(approvalCpu);
    const start = performance.now();
    const cpuBefore = processCpuMs(worker.pid);
    const busyProbe = probe(urls);
    let last = -1;
    while (received < COUNT) {
      await new Promise((r) => setTimeout(r, 100));
      const elapsed = (performance.now() - start) / 1000;
      if (elapsed > LIMIT_SECONDS) break;
      if (Math.floor(elapsed / 10) !== last) {
        last = Math.floor(elapsed / 10);
        const queued = await getDb().outboxEmail.count();
        console.log(`  ${queued} e-mails written, ${received} / ${COUNT} delivered after ${elapsed.toFixed(0)} s`);
      }
    }
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = processCpuMs(worker.pid);
    const busy = await busyProbe.stop();
    // The outbox rows are marked just after their send: give the last marks a moment.
    let sent = 0;
    for (let i = 0; i < 50; i++) {
      sent = await getDb().outboxEmail.count({ where: { status: "sent", toAddress: { not: "warm@bench.example" } } });
      if (sent >= received) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const perSecond = received / seconds;
    const cpuPerMail = cpuBefore !== null && cpuAfter !== null && received ? (cpuAfter - cpuBefore) / received : null;
    console.log(
      `  approval of ${result.changed} affiliates: ${approvalMs.toFixed(0)} ms (${((user + system) / 1000).toFixed(0)} ms CPU); ` +
        `${received} e-mails delivered in ${seconds.toFixed(1)} s = ${perSecond.toFixed(0)} e-mails/s ` +
        `(${sent} outbox rows marked sent)` +
        (cpuPerMail !== null ? `; worker CPU ${cpuPerMail.toFixed(2)} ms per e-mail` : ""),
    );
    console.log(`  web (a click and the portal page, one at a time) before the approval: ${ms(idle.latencies)}`);
    console.log(`  web during the send: ${ms(busy.latencies)}; ${busy.bad} not answered with < 400`);
    const p95 = percentile(busy.latencies, 95);
    return {
      checks: [
        {
          name: `bulk approval of ${COUNT} answers in ${approvalMs.toFixed(0)} ms (< ${TARGET_APPROVAL_MS} ms)`,
          pass: approvalMs < TARGET_APPROVAL_MS,
        },
        {
          name: `${perSecond.toFixed(0)} e-mails/s delivered (>= ${TARGET_PER_SECOND}/s)`,
          pass: perSecond >= TARGET_PER_SECOND && received === COUNT,
        },
        {
          name: `every e-mail once: ${received} received, ${sent} marked sent`,
          pass: received === COUNT && sent === COUNT,
        },
        {
          name: `web requests during the send: p95 ${p95.toFixed(0)} ms (< ${TARGET_WEB_P95_MS} ms), all answered`,
          pass: p95 < TARGET_WEB_P95_MS && busy.bad === 0,
        },
      ],
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
