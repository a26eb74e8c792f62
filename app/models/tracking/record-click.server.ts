// Recording affiliate link clicks. Two callers:
// - the /r/{code} fast path (app/server/click-handler.ts), through a
//   ClickStore: on SQLite a dedicated better-sqlite3 connection with prepared
//   statements and group commit, on PostgreSQL the shared Prisma client;
// - the app proxy route (source "proxy"), through recordClick() and Prisma.
// Either way a click is committed before anybody learns its click id.
import { createHmac, randomFillSync } from "node:crypto";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { getDb } from "../../db.server";
import { parseDatabaseUrl } from "../../db/database-url";
import { shopHost } from "./redirect-url";

export type ClickSource = "link" | "proxy";

/** What a referral code resolves to: the affiliate and where their links land. */
export interface ClickTarget {
  affiliateId: string;
  shopId: string;
  /** Storefront host the visitor is sent to. */
  host: string;
  /** The shop's referral query parameter (Shop.referralParam). */
  param: string;
}

export interface ClickInput {
  shopId: string;
  affiliateId: string;
  source: ClickSource;
  landingUrl: string;
  referrer: string | null;
  /** The client address; only its keyed hash is stored. */
  ip: string | null;
  userAgent: string | null;
}

export interface ClickRow {
  id: string;
  shopId: string;
  affiliateId: string;
  clickId: string;
  source: ClickSource;
  landingUrl: string;
  referrer: string | null;
  ipHash: string | null;
  userAgent: string | null;
  createdAt: Date;
}

const MAX_URL = 2048;
const MAX_USER_AGENT = 512;

// Ids are time-ordered: a millisecond timestamp and a counter first, random
// bytes after. Both indexes they live in (the primary key and the unique
// clickId) then grow at their right edge, so a commit touches a handful of
// pages instead of two random pages per click (the same reason Prisma's
// cuid() starts with a timestamp). Random bytes come from a pool refilled in
// one call, which is cheaper than one syscall per click.
const POOL_BYTES = 4800;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;
let lastMs = -1;
let lastMsText = "";
let counter = 0;
const COUNTER_TEXT = Array.from({ length: 1296 }, (_, i) => i.toString(36).padStart(2, "0"));

/** 32 random base64url characters (24 bytes from the pool). */
function randomText(): string {
  if (poolAt + 24 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const text = pool.toString("base64url", poolAt, poolAt + 24);
  poolAt += 24;
  return text;
}

/** 11 sortable characters: milliseconds (base 36, 9 digits) and a per-millisecond counter (2). */
function timePart(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastMsText = now.toString(36).padStart(9, "0");
    counter = 0;
  }
  return lastMsText + COUNTER_TEXT[counter++ % 1296];
}

/**
 * Ids of a new click: the row's primary key ("c", time prefix, 16 random
 * characters: 28, cuid-like) and the public click id (time prefix, 16 other
 * random characters: 27, URL-safe). 96 random bits each, so click ids cannot
 * be guessed.
 */
export function newClickIds(): { id: string; clickId: string } {
  const time = timePart();
  const random = randomText();
  return { id: `c${time}${random.slice(0, 16)}`, clickId: time + random.slice(16) };
}

/** Keyed hash of a client address (HMAC-SHA256, hex, 32 characters): the raw address is never stored. */
export function hashIp(secret: string, ip: string | null | undefined): string | null {
  if (!ip) return null;
  const normalized = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  // Visitors click more than once: remember recent hashes (bounded).
  let known = ipHashes.get(secret);
  if (!known) ipHashes.set(secret, (known = new Map()));
  const cached = known.get(normalized);
  if (cached) return cached;
  const hash = createHmac("sha256", secret).update(normalized).digest("hex").slice(0, 32);
  if (known.size >= 10_000) known.clear();
  known.set(normalized, hash);
  return hash;
}
const ipHashes = new Map<string, Map<string, string>>();

/** Text from a header or a query: control characters removed (PostgreSQL refuses NUL), cut to max. */
export function cleanText(value: string | null | undefined, max: number): string | null {
  if (!value) return null;
  const clean = CONTROL.test(value) ? value.replace(CONTROL_ALL, "") : value;
  return clean ? clean.slice(0, max) : null;
}
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;

export function buildClickRow(input: ClickInput, secret: string): ClickRow {
  const { id, clickId } = newClickIds();
  return {
    id,
    shopId: input.shopId,
    affiliateId: input.affiliateId,
    clickId,
    source: input.source,
    landingUrl: cleanText(input.landingUrl, MAX_URL) ?? "/",
    referrer: cleanText(input.referrer, MAX_URL),
    ipHash: hashIp(secret, input.ip),
    userAgent: cleanText(input.userAgent, MAX_USER_AGENT),
    createdAt: new Date(),
  };
}

/** Storage used by the /r/ fast path. */
export interface ClickStore {
  /** Approved affiliates with this (normalized) code in installed shops; only in `shopDomain` when given. */
  findTargets(code: string, shopDomain: string | null): ClickTarget[] | Promise<ClickTarget[]>;
  /** The storefront host of an installed shop, or null. */
  findShopHost(shopDomain: string): string | null | Promise<string | null>;
  /** Calls done() once the click is committed, done(error) when it was not. */
  insert(row: ClickRow, done: (error?: unknown) => void): void;
  close(): Promise<void>;
}

interface TargetRow {
  affiliateId: string;
  shopId: string;
  domain: string;
  url: string;
  param: string;
}

const toTarget = (r: TargetRow): ClickTarget => ({
  affiliateId: r.affiliateId,
  shopId: r.shopId,
  host: shopHost(r),
  param: r.param || "ref",
});

// Prisma's SQLite adapter writes DateTime as ISO 8601 with "+00:00"; ours must read back the same.
let lastDate = -1;
let lastDateText = "";
function sqliteDate(d: Date): string {
  const ms = d.getTime();
  if (ms !== lastDate) {
    lastDate = ms;
    lastDateText = d.toISOString().replace("Z", "+00:00");
  }
  return lastDateText;
}

const CLICK_COLUMNS = `("id", "shopId", "affiliateId", "clickId", "source", "landingUrl", "referrer", "ipHash", "userAgent", "createdAt")`;
const ROW_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const WIDTH = 10;
const CHUNK = 64;
const BUSY_RETRY_MS = 2;
const BUSY_GIVE_UP_MS = 2000;

/** Answers one waiting request; a failing callback must not keep the others waiting. */
function settle(done: (error?: unknown) => void, error?: unknown) {
  try {
    done(error);
  } catch (callbackError) {
    console.error("[click] answering a click failed:", callbackError);
  }
}

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown })?.code ?? ""));

// The checkpointer: a worker thread with its own connection that runs a
// PASSIVE checkpoint every 100 ms. A passive checkpoint never blocks the
// writer, so the click path keeps only its commits (WAL appends) and the
// fsyncs of checkpoints happen off the event loop. Plain JavaScript
// evaluated as the worker's source, so it runs the same under tsx, vitest
// and a bundled build.
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // another checkpoint is running: the next tick will do
  }
}, 100);
`;

function startCheckpointer(file: string): Worker {
  const worker = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { file, driver: require.resolve("better-sqlite3") },
  });
  worker.on("error", (error) => console.error("[click] checkpointer stopped:", error));
  worker.unref();
  return worker;
}

/**
 * SQLite: a dedicated better-sqlite3 connection (not Prisma's) with prepared
 * statements, and group commit. Clicks arriving in the same event-loop turn
 * are written together by one multi-row INSERT (one transaction), and each
 * request is answered only after that transaction committed.
 *
 * `PRAGMA synchronous = NORMAL` applies to this connection only. In WAL mode
 * (set on the file by the migrator) a commit is atomic and durable against a
 * crash of the app process: the WAL frames are written before COMMIT
 * returns. Only an operating-system crash or power loss can lose the last
 * transactions (never corrupt the file); that is the trade-off SQLite
 * documents for WAL + NORMAL, and it keeps a click at microseconds instead of
 * an fsync each.
 *
 * The connection never waits for SQLite's write lock (busy timeout 0): when
 * another connection holds it (a Prisma transaction of this very process may,
 * across awaits), the batch is retried on a short timer, so the event loop
 * keeps running and that transaction can finish. A batch still locked out
 * after 2 s fails, and its requests are redirected without a click id.
 */
export function createSqliteClickStore(file: string): ClickStore {
  const db = new Database(file, { timeout: 0 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // Checkpoints (copying the WAL into the database file, with fsyncs) run
  // on a helper thread; this connection only checkpoints itself as a
  // backstop when the WAL passes 10,000 pages (~40 MB).
  db.pragma("wal_autocheckpoint = 10000");
  let checkpointer: Worker | undefined;
  const targetsAnyShop = db.prepare<[string], TargetRow>(
    `SELECT a."id" AS affiliateId, a."shopId" AS shopId, s."domain" AS domain, s."url" AS url, s."referralParam" AS param
     FROM "Affiliate" a JOIN "Shop" s ON s."id" = a."shopId"
     WHERE a."referralCode" = ? AND a."status" = 'approved' AND s."uninstalledAt" IS NULL
     LIMIT 2`,
  );
  const targetsInShop = db.prepare<[string, string], TargetRow>(
    `SELECT a."id" AS affiliateId, a."shopId" AS shopId, s."domain" AS domain, s."url" AS url, s."referralParam" AS param
     FROM "Shop" s JOIN "Affiliate" a ON a."shopId" = s."id"
     WHERE s."domain" = ? AND a."referralCode" = ? AND a."status" = 'approved' AND s."uninstalledAt" IS NULL`,
  );
  const shopByDomain = db.prepare<[string], { domain: string; url: string }>(
    `SELECT "domain", "url" FROM "Shop" WHERE "domain" = ? AND "uninstalledAt" IS NULL`,
  );
  const insertOne = db.prepare(`INSERT INTO "Click" ${CLICK_COLUMNS} VALUES ${ROW_VALUES}`);
  const insertMany = new Map<number, Database.Statement>();
  const insertChunk = (values: unknown[]) => {
    const rows = values.length / WIDTH;
    let statement = insertMany.get(rows);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO "Click" ${CLICK_COLUMNS} VALUES ${new Array(rows).fill(ROW_VALUES).join(", ")}`,
      );
      insertMany.set(rows, statement);
    }
    statement.run(values);
  };
  const insertAll = db.transaction((values: unknown[]) => {
    for (let at = 0; at < values.length; at += CHUNK * WIDTH) insertChunk(values.slice(at, at + CHUNK * WIDTH));
  });
  const write = (values: unknown[]) =>
    values.length <= CHUNK * WIDTH ? insertChunk(values) : insertAll.immediate(values);

  type Waiter = (error?: unknown) => void;
  interface Batch {
    values: unknown[];
    waiters: Waiter[];
    since: number;
  }
  let queue: Batch = { values: [], waiters: [], since: 0 };
  let retrying: Batch | null = null;
  let scheduled = false;
  let closed = false;

  /** Writes a batch; false when the lock was busy (nothing written, try again). */
  const commit = (batch: Batch): boolean => {
    let failure: unknown;
    try {
      write(batch.values);
    } catch (error) {
      failure = error ?? new Error("insert failed");
    }
    if (failure === undefined) {
      for (const done of batch.waiters) settle(done);
      return true;
    }
    if (isBusy(failure)) return false;
    // One bad row (an affiliate deleted a moment ago) must not fail the
    // others: retry each on its own, so every request gets its own answer.
    batch.waiters.forEach((done, i) => {
      let rowFailure: unknown;
      try {
        insertOne.run(batch.values.slice(i * WIDTH, (i + 1) * WIDTH));
      } catch (error) {
        rowFailure = error ?? new Error("insert failed");
      }
      settle(done, rowFailure);
    });
    return true;
  };

  const flush = () => {
    scheduled = false;
    if (!closed) checkpointer ??= startCheckpointer(file);
    if (retrying) return; // the retry timer takes this batch along
    const batch = queue;
    queue = { values: [], waiters: [], since: 0 };
    if (batch.waiters.length && !commit(batch)) {
      retrying = batch;
      setTimeout(retry, BUSY_RETRY_MS);
    }
  };

  const flushNextTurn = () => setImmediate(flush);

  const retry = () => {
    const batch = retrying!;
    // Whatever queued up meanwhile joins the batch being retried.
    batch.values = batch.values.concat(queue.values);
    batch.waiters = batch.waiters.concat(queue.waiters);
    queue = { values: [], waiters: [], since: 0 };
    if (commit(batch)) {
      retrying = null;
    } else if (Date.now() - batch.since > BUSY_GIVE_UP_MS) {
      retrying = null;
      const error = new Error("the database stayed locked; the click was not recorded");
      for (const done of batch.waiters) settle(done, error);
    } else {
      setTimeout(retry, BUSY_RETRY_MS);
    }
  };

  return {
    findTargets: (code, shopDomain) =>
      (shopDomain ? targetsInShop.all(shopDomain, code) : targetsAnyShop.all(code)).map(toTarget),
    findShopHost: (shopDomain) => {
      const shop = shopByDomain.get(shopDomain);
      return shop ? shopHost(shop) : null;
    },
    insert(row, done) {
      if (closed) return done(new Error("click store is closed"));
      if (!queue.waiters.length) queue.since = Date.now();
      queue.values.push(
        row.id,
        row.shopId,
        row.affiliateId,
        row.clickId,
        row.source,
        row.landingUrl,
        row.referrer,
        row.ipHash,
        row.userAgent,
        sqliteDate(row.createdAt),
      );
      queue.waiters.push(done);
      if (!scheduled) {
        scheduled = true;
        // Commit on the next turn but one: requests that arrive in between
        // join the batch (bigger batches, fewer commits under load), while
        // an idle server only passes through one more empty turn.
        setImmediate(flushNextTurn);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      while (retrying) await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
      flush();
      db.close();
      await checkpointer?.terminate();
    },
  };
}

/** PostgreSQL (or any provider): the shared Prisma client. */
export function createPrismaClickStore(): ClickStore {
  const select = {
    id: true,
    shopId: true,
    shop: { select: { domain: true, url: true, referralParam: true } },
  } as const;
  return {
    async findTargets(code, shopDomain) {
      const rows = await getDb().affiliate.findMany({
        where: {
          referralCode: code,
          status: "approved",
          shop: { uninstalledAt: null, ...(shopDomain ? { domain: shopDomain } : {}) },
        },
        select,
        take: 2,
      });
      return rows.map((r) =>
        toTarget({
          affiliateId: r.id,
          shopId: r.shopId,
          domain: r.shop.domain,
          url: r.shop.url,
          param: r.shop.referralParam,
        }),
      );
    },
    async findShopHost(shopDomain) {
      const shop = await getDb().shop.findFirst({
        where: { domain: shopDomain, uninstalledAt: null },
        select: { domain: true, url: true },
      });
      return shop ? shopHost(shop) : null;
    },
    insert(row, done) {
      getDb()
        .click.create({ data: row, select: { id: true } })
        .then(
          () => done(),
          (error: unknown) => done(error ?? new Error("insert failed")),
        );
    },
    async close() {
      // The shared client is closed by whoever owns it (disconnectDb).
    },
  };
}

export function createClickStore(databaseUrl: string): ClickStore {
  const target = parseDatabaseUrl(databaseUrl);
  return target.provider === "sqlite" ? createSqliteClickStore(target.file) : createPrismaClickStore();
}

/** The approved affiliate with this code in one shop (app proxy, pixel). */
export async function findApprovedAffiliate(shopId: string, code: string) {
  return getDb().affiliate.findFirst({
    where: { shopId, referralCode: code, status: "approved" },
    select: { id: true, shopId: true },
  });
}

/** Records a click through Prisma and answers its public click id. */
export async function recordClick(input: ClickInput, secret: string): Promise<string> {
  const row = buildClickRow(input, secret);
  await getDb().click.create({ data: row });
  return row.clickId;
}
