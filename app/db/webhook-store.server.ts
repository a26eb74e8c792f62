// Where a verified webhook is stored before it is answered. On SQLite this
// is a connection of its own with prepared statements (tens of microseconds:
// the webhook stream of a busy store must not wait on the ORM); on
// PostgreSQL it is the Prisma client.

import { randomUUID } from "node:crypto";
import { Worker } from "node:worker_threads";
import { getConfig } from "../config.server";
import { dbProvider, getDb } from "../db.server";
import { notifyJobsEnqueued } from "./job-queue.server";
// The database stayed locked longer than a webhook may wait: answer 503, Shopify retries.
import { DatabaseBusyError } from "./sqlite-adapter.server";
import { joinCheckpointer, WAL_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpointer.server";

export { DatabaseBusyError };
import { parseDatabaseUrl } from "./database-url";

export interface IncomingWebhook {
  shopDomain: string;
  topic: string;
  webhookId: string;
  apiVersion: string | null;
  rawBody: string;
}

function isUniqueViolation(error: unknown) {
  const e = error as { code?: string; meta?: { code?: string }; message?: string } | null;
  // Prisma's P2002, or PostgreSQL's 23505 as a raw statement reports it.
  return e?.code === "P2002" || e?.code === "23505" || e?.meta?.code === "23505" || /\b23505\b/.test(e?.message ?? "");
}

// The event and its job in ONE statement: no interactive transaction, so a
// webhook never waits for (or times out on) a transaction slot of the pool,
// only for a connection, which the pool hands out in turn. A webhook id seen
// before inserts no event; a job key seen before fails the whole statement.
const INGEST_PG = `WITH "ev" AS (
  INSERT INTO "WebhookEvent" ("id", "shopDomain", "topic", "webhookId", "apiVersion", "payload", "receivedAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7::timestamp(3)) ON CONFLICT ("webhookId") DO NOTHING RETURNING "id"
)
INSERT INTO "Job" ("id", "type", "payload", "uniqueKey", "status", "runAt", "attempts", "maxAttempts", "createdAt", "updatedAt")
SELECT $8, 'webhook', $9, $10, 'queued', $7::timestamp(3), 0, 8, $7::timestamp(3), $7::timestamp(3) FROM "ev"
RETURNING "id"`;

/**
 * Stores a verified webhook and its processing job at once, so the request
 * can be answered as soon as the event is durable. The same webhook id
 * delivered again is recognised and stores nothing. (PostgreSQL, or SQLite
 * in memory; a SQLite file has its own writer below.)
 */
export async function ingestWebhook(hook: IncomingWebhook): Promise<"stored" | "duplicate"> {
  const db = getDb();
  const eventId = randomUUID();
  try {
    if (dbProvider() === "postgresql") {
      const at = new Date().toISOString();
      const rows = await db.$queryRawUnsafe<{ id: string }[]>(
        INGEST_PG,
        eventId,
        hook.shopDomain,
        hook.topic,
        hook.webhookId,
        hook.apiVersion,
        hook.rawBody,
        at,
        randomUUID(),
        JSON.stringify({ eventId, topic: hook.topic }),
        `webhook:${hook.webhookId}`,
      );
      if (rows.length === 0) return "duplicate";
    } else {
      // Two inserts in one (non-interactive) transaction. The worker fills
      // in the shop when it processes the event.
      await db.$transaction([
        db.webhookEvent.create({
          data: {
            id: eventId,
            shopDomain: hook.shopDomain,
            topic: hook.topic,
            webhookId: hook.webhookId,
            apiVersion: hook.apiVersion,
            payload: hook.rawBody,
          },
          select: { id: true },
        }),
        db.job.create({
          data: {
            type: "webhook",
            payload: JSON.stringify({ eventId, topic: hook.topic }),
            uniqueKey: `webhook:${hook.webhookId}`,
          },
          select: { id: true },
        }),
      ]);
    }
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
  notifyJobsEnqueued();
  return "stored";
}

export interface WebhookStore {
  store(hook: IncomingWebhook): Promise<"stored" | "duplicate">;
  /** True once the store can take nothing more (its writer thread ended): make a new one. */
  stopped(): boolean;
  close(): void;
}

// The SQLite writer runs on a worker thread with its own connection: its
// wait for the write lock (held by the job worker, or by a transaction of
// this very process) must never block the event loop that would release it.
// Plain JavaScript evaluated as the thread's source, so it runs the same
// under tsx, vitest and the built server.
const WRITER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { randomUUID } = require("node:crypto");
const Database = require(workerData.driver);
// No busy timeout: SQLite's own backs off to 100 ms sleeps and can lose the
// lock again and again to the job worker's back-to-back transactions. This
// thread may block, so it tries again every millisecond instead.
const db = new Database(workerData.file, { timeout: 0 });
const pause = new Int32Array(new SharedArrayBuffer(4));
const isBusy = (error) => error && /^SQLITE_(BUSY|LOCKED)/.test(String(error.code));
db.pragma("journal_mode = WAL");
// Durable against a crash of the app (WAL); see docs/decisions/007.
db.pragma("synchronous = NORMAL");
// Checkpoints run on the file's helper thread (sqlite-checkpointer.server.ts).
// At SQLite's default (1,000 pages) a batch past it ran one itself, fsyncs
// and all, while its webhooks waited for their answer: the orders bench's
// intake took 0.26 ms of this thread per webhook instead of 0.09.
db.pragma("wal_autocheckpoint = " + workerData.autocheckpointPages);
const insertEvent = db.prepare(workerData.insertEvent);
const insertJob = db.prepare(workerData.insertJob);
// Prisma's SQLite adapter writes DateTime as ISO 8601 with "+00:00".
const now = () => new Date().toISOString().replace("Z", "+00:00");
const write = db.transaction((hooks) => {
  const results = [];
  for (const hook of hooks) {
    // A savepoint per webhook: a duplicate fails alone, not the whole batch.
    try {
      db.transaction(() => {
        const eventId = randomUUID();
        const at = now();
        insertEvent.run(eventId, hook.shopDomain, hook.topic, hook.webhookId, hook.apiVersion, hook.rawBody, at);
        insertJob.run(randomUUID(), JSON.stringify({ eventId, topic: hook.topic }), "webhook:" + hook.webhookId, at, at, at);
      })();
      results.push("stored");
    } catch (error) {
      if (error && error.code === "SQLITE_CONSTRAINT_UNIQUE") results.push("duplicate");
      else results.push("error:" + (error && error.message));
    }
  }
  return results;
});
parentPort.on("message", (batch) => {
  if (batch.settings) {
    const value = (name) => db.pragma(name, { simple: true });
    parentPort.postMessage({ seq: batch.seq, settings: {
      journalMode: value("journal_mode"),
      synchronous: value("synchronous"),
      walAutocheckpoint: value("wal_autocheckpoint"),
    } });
    return;
  }
  const giveUpAt = Date.now() + workerData.giveUpMs;
  for (;;) {
    try {
      parentPort.postMessage({ seq: batch.seq, results: write.immediate(batch.hooks) });
      return;
    } catch (error) {
      if (isBusy(error) && Date.now() < giveUpAt) {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      parentPort.postMessage({ seq: batch.seq, error: String(error && error.message), busy: isBusy(error) });
      return;
    }
  }
});
`;

// Shopify waits 5 s for an answer; a webhook not stored by then is answered
// 503 and delivered again later.
const BUSY_GIVE_UP_MS = 4000;

const INSERT_EVENT = `INSERT INTO "WebhookEvent" ("id", "shopDomain", "topic", "webhookId", "apiVersion", "payload", "receivedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`;
const INSERT_JOB = `INSERT INTO "Job" ("id", "type", "payload", "uniqueKey", "status", "runAt", "attempts", "maxAttempts", "createdAt", "updatedAt") VALUES (?, 'webhook', ?, ?, 'queued', ?, 0, 8, ?, ?)`;

/** What the SQLite writer's connection is set to (tests). */
export interface WriterSettings {
  journalMode: string;
  synchronous: number;
  walAutocheckpoint: number;
}

type Waiting = { hook: IncomingWebhook; resolve: (r: "stored" | "duplicate") => void; reject: (e: Error) => void };

export function createSqliteWebhookStore(file: string): WebhookStore & { settings(): Promise<WriterSettings> } {
  const worker = new Worker(WRITER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: require.resolve("better-sqlite3"),
      insertEvent: INSERT_EVENT,
      insertJob: INSERT_JOB,
      giveUpMs: BUSY_GIVE_UP_MS,
      autocheckpointPages: WAL_AUTOCHECKPOINT_PAGES,
    },
  });
  worker.unref();
  const releaseCheckpointer = joinCheckpointer(file);
  // Webhooks that arrive while the thread is busy go together in its next
  // transaction (group commit).
  let queue: Waiting[] = [];
  const inFlight = new Map<number, Waiting[]>();
  const asked = new Map<number, { resolve: (settings: WriterSettings) => void; reject: (e: Error) => void }>();
  let seq = 0;
  // A stopped thread (closed, or crashed) answers nothing: what waits for it
  // is answered busy (503, Shopify delivers it again) instead of hanging
  // until the request times out, and so is whatever comes after.
  let stopped: Error | null = null;
  const flush = () => {
    if (queue.length === 0 || inFlight.size > 0) return;
    const batch = queue;
    queue = [];
    inFlight.set(++seq, batch);
    worker.postMessage({ seq, hooks: batch.map((b) => b.hook) });
  };
  worker.on(
    "message",
    (msg: { seq: number; results?: string[]; error?: string; busy?: boolean; settings?: WriterSettings }) => {
      if (msg.settings) {
        asked.get(msg.seq)?.resolve(msg.settings);
        asked.delete(msg.seq);
        return;
      }
      const batch = inFlight.get(msg.seq) ?? [];
      inFlight.delete(msg.seq);
      batch.forEach((b, i) => {
        const result = msg.results?.[i];
        if (result === "stored" || result === "duplicate") b.resolve(result);
        else
          b.reject(
            msg.busy ? new DatabaseBusyError(BUSY_GIVE_UP_MS) : new Error(msg.error ?? result ?? "webhook not stored"),
          );
      });
      if (msg.results?.includes("stored")) notifyJobsEnqueued();
      flush();
    },
  );
  const stop = (error: Error) => {
    stopped ??= error;
    const waiting = [...inFlight.values(), queue, [...asked.values()]].flat();
    inFlight.clear();
    queue = [];
    asked.clear();
    for (const w of waiting) w.reject(stopped);
    void releaseCheckpointer();
  };
  worker.on("error", (error) => {
    console.error(`[webhooks] the writer thread failed: ${error.message}`);
    stop(new DatabaseBusyError(BUSY_GIVE_UP_MS));
  });
  worker.on("exit", () => stop(new DatabaseBusyError(BUSY_GIVE_UP_MS)));
  return {
    store(hook) {
      if (stopped) return Promise.reject(stopped);
      return new Promise((resolve, reject) => {
        queue.push({ hook, resolve, reject });
        flush();
      });
    },
    settings() {
      if (stopped) return Promise.reject(stopped);
      return new Promise((resolve, reject) => {
        asked.set(++seq, { resolve, reject });
        worker.postMessage({ seq, settings: true });
      });
    },
    stopped: () => stopped !== null,
    close: () => void worker.terminate(),
  };
}

export function createWebhookStore(databaseUrl = getConfig().DATABASE_URL): WebhookStore {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider === "sqlite" && target.file !== ":memory:") return createSqliteWebhookStore(target.file);
  return { store: ingestWebhook, stopped: () => false, close: () => {} };
}
