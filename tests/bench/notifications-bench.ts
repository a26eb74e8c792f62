// Notifications at volume: one bulk approval of N pending affiliates (the
// domain call behind the admin's "Approve" on the list) queues N
// affiliate.approved events; the job worker turns them into e-mails and
// delivers them to a real SMTP server on loopback (smtp-server, which
// accepts and counts each message). Measured: how long the approval takes
// (the request's own work) and e-mails delivered per second end to end.
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SMTPServer } from "smtp-server";
import { migrate } from "../../app/db/migrate.server";
import type { BenchResult } from "./run";

const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);
const TARGET_PER_SECOND = 200;
const TARGET_APPROVAL_MS = 1000;
// Delivery stops being watched after this long (the rate is what was delivered by then).
const LIMIT_SECONDS = Number(process.env.BENCH_NOTIFICATIONS_SECONDS ?? 300);

function seed(file: string) {
  const db = new Database(file);
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "pricingPlan", "updatedAt") VALUES ('shop', 'bench-mail.myshopify.com', 'Bench', 'https://bench-mail.myshopify.com', 'o@bench.example', 'pro', ?)`,
  ).run(now);
  db.prepare(
    `INSERT INTO "Campaign" (id, "shopId", name, status, "isDefault", "updatedAt") VALUES ('camp', 'shop', 'Bench', 'active', 1, ?)`,
  ).run(now);
  const insert = db.prepare(
    `INSERT INTO "Affiliate" (id, "shopId", "campaignId", email, "firstName", "lastName", status, "referralCode", "updatedAt") VALUES (?, 'shop', 'camp', ?, ?, 'Bench', 'pending', ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < COUNT; i++) insert.run(`a${i}`, `a${i}@bench.example`, `A${i}`, `CODE${i}`, now);
  })();
  db.close();
}

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
  Object.assign(process.env, {
    DATABASE_URL: `file:${file}`,
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?pool=true&maxConnections=4`,
    SEED_DEMO: "0",
    SESSION_SECRET: process.env.SESSION_SECRET ?? "bench-session-secret-0123456789",
    SHOPIFY_API_KEY: process.env.SHOPIFY_API_KEY ?? "bench",
    SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET ?? "bench",
  });
  try {
    const { getDb } = await import("../../app/db.server");
    const { shopDb } = await import("../../app/db/shop-db.server");
    const { setAffiliatesStatus } = await import("../../app/models/affiliates/admin-affiliates.server");
    const { createJobWorker } = await import("../../app/models/jobs/registry.server");
    const ids = Array.from({ length: COUNT }, (_, i) => `a${i}`);
    // A running server is warm: the first query (engine start) is not part of the request.
    await getDb().shop.count();
    const approvalStart = performance.now();
    const result = await setAffiliatesStatus(shopDb(getDb(), "shop"), ids, "approve");
    const approvalMs = performance.now() - approvalStart;
    const start = performance.now();
    const worker = createJobWorker({ logger: { info: () => {}, error: (line: string) => console.error(line) } });
    worker.start();
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
    await worker.stop();
    const perSecond = received / seconds;
    const sent = await getDb().outboxEmail.count({ where: { status: "sent" } });
    console.log(
      `  approval of ${result.changed} affiliates: ${approvalMs.toFixed(0)} ms; ` +
        `${received} e-mails delivered in ${seconds.toFixed(1)} s = ${perSecond.toFixed(0)} e-mails/s ` +
        `(${sent} outbox rows marked sent)`,
    );
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
      ],
    };
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
