// Click storage for the /r/{code} fast path (app/server/click-handler.ts):
// on SQLite a dedicated better-sqlite3 connection with prepared statements,
// group commit and a checkpointer thread; on PostgreSQL the shared Prisma
// client. Either way a click is committed before its request is answered.
// What a click means (ids, hashing, which affiliate it credits) is the
// tracking domain's (app/models/tracking/record-click.server.ts).
import { joinCheckpointer, WAL_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpointer.server";
import Database from "better-sqlite3";
import pg from "pg";
import { getDb } from "../db.server";
import { parseDatabaseUrl } from "./database-url";
import { sqlDate } from "./dialect";

export type ClickSource = "link" | "qr" | "proxy";

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
  subId: string | null;
  linkTags: string | null;
  createdAt: Date;
}

/** Storage used by the /r/ fast path. */
export interface ClickStore {
  /**
   * Approved affiliates with this (normalized) code in installed shops; only
   * in `shopDomain` when given, else only in the shop a LegacyLinkCode names
   * for the code (links of the old form handed out before another shop made
   * the same code).
   */
  findTargets(code: string, shopDomain: string | null): ClickTargetRow[] | Promise<ClickTargetRow[]>;
  /** An installed shop's domain and storefront URL, or null. */
  findShop(shopDomain: string): ClickShopRow | null | Promise<ClickShopRow | null>;
  /** Calls done() once the click is committed, done(error) when it was not. */
  insert(row: ClickRow, done: (error?: unknown) => void): void;
  close(): Promise<void>;
}

/** An approved affiliate with the code, and the shop's domain, storefront URL and referral parameter. */
export interface ClickTargetRow {
  affiliateId: string;
  shopId: string;
  domain: string;
  url: string;
  param: string;
  /**
   * The affiliate's discount code the link applies (Shop.autoApplyDiscount),
   * only one Shopify has (Coupon.shopifyStatus "created"); null otherwise.
   */
  discount: string | null;
}

// The affiliate's first code that exists in Shopify, when the shop's links
// apply it. Read with the code lookup (cached per link), never per click.
const DISCOUNT_COLUMN = `CASE WHEN s."autoApplyDiscount" THEN (SELECT c."code" FROM "Coupon" c
       WHERE c."affiliateId" = a."id" AND c."shopifyStatus" = 'created'
       ORDER BY c."createdAt", c."id" LIMIT 1) END AS discount`;

export interface ClickShopRow {
  domain: string;
  url: string;
}

// The text Prisma's SQLite adapter writes DateTime as (sqlDate), kept for
// the clicks of one millisecond.
let lastDate = -1;
let lastDateText = "";
function sqliteDate(d: Date): string {
  const ms = d.getTime();
  if (ms !== lastDate) {
    lastDate = ms;
    lastDateText = sqlDate("sqlite", d);
  }
  return lastDateText;
}

const CLICK_COLUMNS = `("id", "shopId", "affiliateId", "clickId", "source", "landingUrl", "referrer", "ipHash", "userAgent", "subId", "linkTags", "createdAt")`;
const ROW_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
const WIDTH = 12;
const CHUNK = 64;
const BUSY_RETRY_MS = 2;
const BUSY_GIVE_UP_MS = 2000;

// Clicks of one turn are mostly a burst on one link: they share the shop,
// affiliate, source and landing URL, which are then bound once per statement
// as named parameters (each bound value costs a UTF-8 copy; about 1 µs of
// CPU per click less), the row's own values positional.
const SHARED_ROW_VALUES = "(?, @shopId, @affiliateId, ?, @source, @landingUrl, ?, ?, ?, ?, ?, ?)";
const OWN_COLUMNS = [0, 3, 6, 7, 8, 9, 10, 11];
const OWN_WIDTH = OWN_COLUMNS.length;

/** Whether every row of a flat value list has the first row's shop, affiliate, source and landing URL. */
function sharesLink(values: unknown[]): boolean {
  const [shopId, affiliateId, source, landingUrl] = [values[1], values[2], values[4], values[5]];
  for (let at = WIDTH; at < values.length; at += WIDTH) {
    if (
      values[at + 1] !== shopId ||
      values[at + 2] !== affiliateId ||
      values[at + 4] !== source ||
      values[at + 5] !== landingUrl
    )
      return false;
  }
  return true;
}

/** Answers one waiting request; a failing callback must not keep the others waiting. */
function settle(done: (error?: unknown) => void, error?: unknown) {
  try {
    done(error);
  } catch (callbackError) {
    console.error("[click] answering a click failed:", callbackError);
  }
}

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown })?.code ?? ""));

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
  // Checkpoints run on the file's helper thread; this connection only
  // checkpoints itself as a backstop (sqlite-checkpointer.server.ts).
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const releaseCheckpointer = joinCheckpointer(file);
  const targetsAnyShop = db.prepare<[string], ClickTargetRow>(
    `SELECT a."id" AS affiliateId, a."shopId" AS shopId, s."domain" AS domain, s."url" AS url, s."referralParam" AS param,
       ${DISCOUNT_COLUMN}
     FROM "Affiliate" a JOIN "Shop" s ON s."id" = a."shopId"
     WHERE a."referralCode" = ? AND a."status" = 'approved' AND s."uninstalledAt" IS NULL
       AND a."shopId" = COALESCE(
         (SELECT l."shopId" FROM "LegacyLinkCode" l WHERE l."code" = a."referralCode"), a."shopId")
     LIMIT 2`,
  );
  const targetsInShop = db.prepare<[string, string], ClickTargetRow>(
    `SELECT a."id" AS affiliateId, a."shopId" AS shopId, s."domain" AS domain, s."url" AS url, s."referralParam" AS param,
       ${DISCOUNT_COLUMN}
     FROM "Shop" s JOIN "Affiliate" a ON a."shopId" = s."id"
     WHERE s."domain" = ? AND a."referralCode" = ? AND a."status" = 'approved' AND s."uninstalledAt" IS NULL`,
  );
  const shopByDomain = db.prepare<[string], { domain: string; url: string }>(
    `SELECT "domain", "url" FROM "Shop" WHERE "domain" = ? AND "uninstalledAt" IS NULL`,
  );
  const insertOne = db.prepare(`INSERT INTO "Click" ${CLICK_COLUMNS} VALUES ${ROW_VALUES}`);
  const insertMany = new Map<number, Database.Statement>();
  const insertShared = new Map<number, Database.Statement>();
  const prepared = (cache: Map<number, Database.Statement>, rows: number, rowValues: string) => {
    let statement = cache.get(rows);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO "Click" ${CLICK_COLUMNS} VALUES ${new Array(rows).fill(rowValues).join(", ")}`,
      );
      cache.set(rows, statement);
    }
    return statement;
  };
  const insertChunk = (values: unknown[]) => {
    const rows = values.length / WIDTH;
    if (rows > 1 && sharesLink(values)) {
      const own = new Array<unknown>(rows * OWN_WIDTH);
      for (let row = 0, at = 0, to = 0; row < rows; row++, at += WIDTH, to += OWN_WIDTH) {
        for (let i = 0; i < OWN_WIDTH; i++) own[to + i] = values[at + OWN_COLUMNS[i]!];
      }
      prepared(insertShared, rows, SHARED_ROW_VALUES).run(own, {
        shopId: values[1],
        affiliateId: values[2],
        source: values[4],
        landingUrl: values[5],
      });
    } else {
      prepared(insertMany, rows, ROW_VALUES).run(values);
    }
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
    findTargets: (code, shopDomain) => (shopDomain ? targetsInShop.all(shopDomain, code) : targetsAnyShop.all(code)),
    findShop: (shopDomain) => shopByDomain.get(shopDomain) ?? null,
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
        row.subId,
        row.linkTags,
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
      await releaseCheckpointer();
    },
  };
}

/**
 * Look-ups through the shared Prisma client (the click handler caches them);
 * clicks written by `insertClick` (PostgreSQL: postgresClickWriter).
 */
export function createPrismaClickStore(
  insertClick: ClickStore["insert"] = (row, done) => {
    getDb()
      .click.create({ data: row, select: { id: true } })
      .then(
        () => done(),
        (error: unknown) => done(error ?? new Error("insert failed")),
      );
  },
): ClickStore {
  const select = {
    id: true as const,
    shopId: true as const,
    shop: { select: { domain: true, url: true, referralParam: true, autoApplyDiscount: true } as const },
    coupons: {
      where: { shopifyStatus: "created" as const },
      orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
      take: 1,
      select: { code: true as const },
    },
  };
  return {
    async findTargets(code, shopDomain) {
      const legacy = shopDomain
        ? null
        : await getDb().legacyLinkCode.findUnique({ where: { code }, select: { shopId: true } });
      const rows = await getDb().affiliate.findMany({
        where: {
          referralCode: code,
          ...(legacy ? { shopId: legacy.shopId } : {}),
          status: "approved",
          shop: { uninstalledAt: null, ...(shopDomain ? { domain: shopDomain } : {}) },
        },
        select,
        take: 2,
      });
      return rows.map((r) => ({
        affiliateId: r.id,
        shopId: r.shopId,
        domain: r.shop.domain,
        url: r.shop.url,
        param: r.shop.referralParam,
        discount: r.shop.autoApplyDiscount ? (r.coupons[0]?.code ?? null) : null,
      }));
    },
    findShop(shopDomain) {
      return getDb().shop.findFirst({
        where: { domain: shopDomain, uninstalledAt: null },
        select: { domain: true, url: true },
      });
    },
    insert: insertClick,
    async close() {
      // The shared client is closed by whoever owns it (disconnectDb).
    },
  };
}

// PostgreSQL: the clicks that arrive while a write is in flight go into the
// next one, a single INSERT of arrays (group commit, as on SQLite). One
// Prisma create per click cost a pooled connection and about a millisecond
// of CPU each: under a burst the clicks held every connection of the pool
// and the admin's pages waited seconds behind them. The writes use
// connections of their own (CLICK_CONNECTIONS, beside DATABASE_POOL_SIZE).
const CLICK_CONNECTIONS = 3;
const CLICK_BATCH = 500;
const INSERT_PG = `INSERT INTO "Click" ${CLICK_COLUMNS}
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamp(3)[])`;

/** Group commit of clicks over a pool of its own; done() runs once a click's INSERT has committed. */
export function postgresClickWriter(connectionString: string) {
  const pool = new pg.Pool({ connectionString, max: CLICK_CONNECTIONS });
  pool.on("error", (error) => console.error("[click] an idle database connection failed:", error.message));
  type Waiting = { row: ClickRow; done: (error?: unknown) => void };
  let queue: Waiting[] = [];
  const write = (batch: Waiting[]) => {
    const column = (pick: (r: ClickRow) => string | null) => batch.map((b) => pick(b.row));
    return pool.query(INSERT_PG, [
      column((r) => r.id),
      column((r) => r.shopId),
      column((r) => r.affiliateId),
      column((r) => r.clickId),
      column((r) => r.source),
      column((r) => r.landingUrl),
      column((r) => r.referrer),
      column((r) => r.ipHash),
      column((r) => r.userAgent),
      column((r) => r.subId),
      column((r) => r.linkTags),
      column((r) => r.createdAt.toISOString()),
    ]);
  };
  let writing = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    while (queue.length > 0 && writing < CLICK_CONNECTIONS) {
      const batch = queue.slice(0, CLICK_BATCH);
      queue = queue.slice(batch.length);
      writing++;
      write(batch)
        .then(
          () => batch.forEach((b) => settle(b.done)),
          async (error: unknown) => {
            // One bad row (an affiliate deleted a moment ago) fails the
            // statement: the rows are written one by one, and only it fails.
            if (batch.length === 1) return settle(batch[0]!.done, error ?? new Error("insert failed"));
            for (const b of batch)
              await write([b]).then(
                () => settle(b.done),
                (e: unknown) => settle(b.done, e),
              );
          },
        )
        .finally(() => {
          writing--;
          if (queue.length > 0 && !scheduled) {
            scheduled = true;
            setImmediate(flush);
          }
        });
    }
  };
  return {
    insert(row: ClickRow, done: (error?: unknown) => void) {
      queue.push({ row, done });
      if (!scheduled && writing < CLICK_CONNECTIONS) {
        scheduled = true;
        // The clicks of this turn go together.
        setImmediate(flush);
      }
    },
    close: () => pool.end(),
  };
}

export function createClickStore(databaseUrl: string): ClickStore {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider === "sqlite") return createSqliteClickStore(target.file);
  const writer = postgresClickWriter(target.url);
  return { ...createPrismaClickStore(writer.insert), close: writer.close };
}
