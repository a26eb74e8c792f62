// Recording affiliate link clicks. Two callers:
// - the /r/{code} fast path (app/server/click-handler.ts), through a
//   ClickStore: on SQLite a dedicated better-sqlite3 connection with prepared
//   statements and group commit, on PostgreSQL the shared Prisma client;
// - the app proxy route (source "proxy"), through recordClick() and Prisma.
// Either way a click is committed before anybody learns its click id.
import { createHmac, randomFillSync, randomUUID } from "node:crypto";
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

// Click ids: 16 random bytes, base64url (22 characters). Bytes come from a
// pool refilled in one call, which is cheaper than one syscall per click.
const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let poolNext = POOL_IDS;

/** A new public click id: 22 URL-safe characters, 128 random bits. */
export function newClickId(): string {
  if (poolNext >= POOL_IDS) {
    randomFillSync(pool);
    poolNext = 0;
  }
  const start = 16 * poolNext++;
  return pool.toString("base64url", start, start + 16);
}

/** Keyed hash of a client address (HMAC-SHA256, hex, 32 characters): the raw address is never stored. */
export function hashIp(secret: string, ip: string | null | undefined): string | null {
  if (!ip) return null;
  const normalized = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return createHmac("sha256", secret).update(normalized).digest("hex").slice(0, 32);
}

/** Text from a header or a query: control characters removed (PostgreSQL refuses NUL), cut to max. */
export function cleanText(value: string | null | undefined, max: number): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, "");
  return clean ? clean.slice(0, max) : null;
}

export function buildClickRow(input: ClickInput, secret: string): ClickRow {
  return {
    id: randomUUID(),
    shopId: input.shopId,
    affiliateId: input.affiliateId,
    clickId: newClickId(),
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
  /** Resolves once the click is committed. */
  insert(row: ClickRow): Promise<void>;
  close(): Promise<void>;
}

interface TargetRow {
  affiliateId: string;
  shopId: string;
  domain: string;
  url: string;
  param: string;
}

const toTarget = (r: TargetRow): ClickTarget => ({ affiliateId: r.affiliateId, shopId: r.shopId, host: shopHost(r), param: r.param || "ref" });

// Prisma's SQLite adapter writes DateTime as ISO 8601 with "+00:00"; ours must read back the same.
const sqliteDate = (d: Date) => d.toISOString().replace("Z", "+00:00");

/**
 * SQLite: a dedicated better-sqlite3 connection (not Prisma's), prepared
 * statements, and group commit: clicks arriving in the same event-loop turn
 * are written in one transaction, and each request is answered only after
 * that transaction committed.
 *
 * `PRAGMA synchronous = NORMAL` applies to this connection only. In WAL mode
 * (set on the file by the migrator) a commit is still atomic and durable
 * against a crash of the app process: the WAL is written before COMMIT
 * returns, and only an operating-system crash or power loss can lose the last
 * transactions (never corrupt the file). That is the trade-off SQLite
 * documents for WAL + NORMAL, and it keeps a click at microseconds instead of
 * an fsync each.
 */
export function createSqliteClickStore(file: string): ClickStore {
  // A writer waits up to 2 s for the lock (Prisma's connection may hold it).
  const db = new Database(file, { timeout: 2000 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
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
  const insertStmt = db.prepare(
    `INSERT INTO "Click" ("id", "shopId", "affiliateId", "clickId", "source", "landingUrl", "referrer", "ipHash", "userAgent", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertOne = (r: ClickRow) =>
    insertStmt.run(r.id, r.shopId, r.affiliateId, r.clickId, r.source, r.landingUrl, r.referrer, r.ipHash, r.userAgent, sqliteDate(r.createdAt));
  const insertMany = db.transaction((rows: ClickRow[]) => {
    for (const r of rows) insertOne(r);
  });

  type Pending = { row: ClickRow; resolve: () => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (!batch.length) return;
    try {
      insertMany(batch.map((p) => p.row));
      for (const p of batch) p.resolve();
    } catch {
      // One bad row (an affiliate deleted a moment ago) must not fail the
      // others: retry each on its own, so every caller gets its own answer.
      for (const p of batch) {
        try {
          insertOne(p.row);
          p.resolve();
        } catch (error) {
          p.reject(error);
        }
      }
    }
  };

  return {
    findTargets: (code, shopDomain) => (shopDomain ? targetsInShop.all(shopDomain, code) : targetsAnyShop.all(code)).map(toTarget),
    findShopHost: (shopDomain) => {
      const shop = shopByDomain.get(shopDomain);
      return shop ? shopHost(shop) : null;
    },
    insert(row) {
      if (closed) return Promise.reject(new Error("click store is closed"));
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      if (closed) return;
      flush();
      closed = true;
      db.close();
    },
  };
}

/** PostgreSQL (or any provider): the shared Prisma client. */
export function createPrismaClickStore(): ClickStore {
  const select = { id: true, shopId: true, shop: { select: { domain: true, url: true, referralParam: true } } } as const;
  return {
    async findTargets(code, shopDomain) {
      const rows = await getDb().affiliate.findMany({
        where: { referralCode: code, status: "approved", shop: { uninstalledAt: null, ...(shopDomain ? { domain: shopDomain } : {}) } },
        select,
        take: 2,
      });
      return rows.map((r) => toTarget({ affiliateId: r.id, shopId: r.shopId, domain: r.shop.domain, url: r.shop.url, param: r.shop.referralParam }));
    },
    async findShopHost(shopDomain) {
      const shop = await getDb().shop.findFirst({ where: { domain: shopDomain, uninstalledAt: null }, select: { domain: true, url: true } });
      return shop ? shopHost(shop) : null;
    },
    async insert(row) {
      await getDb().click.create({ data: row });
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
