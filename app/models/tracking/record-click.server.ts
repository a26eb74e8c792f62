// Recording affiliate link clicks. Two callers:
// - the /r/{code} fast path (app/server/click-handler.ts), through a
//   ClickStore (app/db/click-store.server.ts);
// - the app proxy route (source "proxy"), through recordClick() and Prisma.
// Either way a click is committed before anybody learns its click id.
import { createHmac, randomFillSync } from "node:crypto";
import { getDb } from "../../db.server";
import type { ClickRow, ClickSource, ClickTargetRow } from "../../db/click-store.server";
import { NO_TAGS, type LinkTags } from "./link-tags";
import { shopHost } from "./redirect-url";

export type { ClickRow, ClickSource };

/** What a referral code resolves to: the affiliate and where their links land. */
export interface ClickTarget {
  affiliateId: string;
  shopId: string;
  /** Storefront host the visitor is sent to. */
  host: string;
  /** The shop's referral query parameter (Shop.referralParam). */
  param: string;
  /** The discount code the link applies through /discount/{code} (Shop.autoApplyDiscount), or null. */
  discount: string | null;
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
  /** The link's tags (link-tags.ts), already cleaned. */
  tags?: LinkTags;
}

const MAX_URL = 2048;
const MAX_USER_AGENT = 512;

// Ids are time-ordered: a millisecond timestamp and a counter first, random
// bytes after. Both indexes they live in (the primary key and the unique
// clickId) then grow at their right edge, so a commit touches a handful of
// pages instead of two random pages per click (the same reason Prisma's
// cuid() starts with a timestamp). Random bytes come from a pool refilled in
// one call, which is cheaper than one syscall per click, and are turned into
// text in one call too (a slice per click after that).
const POOL_BYTES = 4800;
const pool = Buffer.alloc(POOL_BYTES);
let poolText = "";
let poolAt = POOL_BYTES;
let lastMs = -1;
let lastMsText = "";
let counter = 0;
const COUNTER_TEXT = Array.from({ length: 1296 }, (_, i) => i.toString(36).padStart(2, "0"));

/** 32 random base64url characters (24 bytes from the pool). */
function randomText(): string {
  if (poolAt + 24 > POOL_BYTES) {
    randomFillSync(pool);
    // 24 bytes are exactly 32 characters: the text splits on the same bounds.
    poolText = pool.toString("base64url");
    poolAt = 0;
  }
  const at = (poolAt / 3) * 4;
  poolAt += 24;
  return poolText.slice(at, at + 32);
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
  const tags = input.tags ?? NO_TAGS;
  return {
    id,
    shopId: input.shopId,
    affiliateId: input.affiliateId,
    clickId,
    // A QR scan of a link is counted apart from a click on it.
    source: tags.qr && input.source === "link" ? "qr" : input.source,
    landingUrl: cleanText(input.landingUrl, MAX_URL) ?? "/",
    referrer: cleanText(input.referrer, MAX_URL),
    ipHash: hashIp(secret, input.ip),
    userAgent: cleanText(input.userAgent, MAX_USER_AGENT),
    subId: tags.subId,
    linkTags: tags.linkTags,
    createdAt: new Date(),
  };
}

/** Where a click for this stored target lands: the storefront host and the referral parameter. */
export function toClickTarget(row: ClickTargetRow): ClickTarget {
  return {
    affiliateId: row.affiliateId,
    shopId: row.shopId,
    host: shopHost(row),
    param: row.param || "ref",
    discount: row.discount || null,
  };
}

/**
 * The approved affiliate with this code in one shop (app proxy, pixel): their
 * referral code, or else a code kept from the app the shop used before
 * (ReferralAlias, ADR 048). A referral code wins over an alias.
 */
export async function findApprovedAffiliate(shopId: string, code: string) {
  const db = getDb();
  const own = await db.affiliate.findFirst({
    where: { shopId, referralCode: code, status: "approved" },
    select: { id: true, shopId: true },
  });
  if (own) return own;
  const alias = await db.referralAlias.findFirst({
    where: { shopId, code, affiliate: { status: "approved" } },
    select: { affiliate: { select: { id: true, shopId: true } } },
  });
  return alias?.affiliate ?? null;
}

/** Records a click through Prisma and answers its public click id. */
export async function recordClick(input: ClickInput, secret: string): Promise<string> {
  const row = buildClickRow(input, secret);
  await getDb().click.create({ data: row });
  return row.clickId;
}
