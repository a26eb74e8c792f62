import type { ShopDb } from "../../db/shop-db.server";
import { randomInt, randomUUID } from "node:crypto";
import { chunks } from "../../lib/chunks";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { jobRow } from "../jobs/enqueue.server";
import { referralCodeBase, TAKEN } from "./affiliate-writes.server";
import { parseAffiliateCsv, type ImportError, type ParsedRow } from "./csv-format";

// CSV import: all or nothing. The file's own rules are checked first, then
// the shop's (campaign, unique e-mail / referral code / coupons, upline) for
// every row with a few bulk reads; if any row fails, nothing is written and
// the merchant gets every row's problems. Otherwise all rows are inserted in
// one transaction with bulk inserts, so the write lock (SQLite) is held for
// well under a second even for thousands of rows. An upline may name an
// existing affiliate or a row above in the same file; a new affiliate has no
// downline yet, so no cycle can arise. The unique indexes still guard against
// a concurrent writer: a clash rolls the whole import back.

export type ImportResult = { ok: true; imported: number } | { ok: false; errors: ImportError[] };

const MAX_REPORTED = 500;
const IN_CHUNK = 500;

interface NewAffiliate {
  id: string;
  shopId: string;
  campaignId: string;
  parentId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  referralCode: string;
}

/** Values of `column` among the shop's affiliates that are in `values` (chunked IN lists). */
async function existing(db: ShopDb, column: "email" | "referralCode", values: string[]) {
  const shopId = db.$shopId;
  const found = new Map<string, string>();
  for (const part of chunks([...new Set(values)], IN_CHUNK)) {
    const rows = await db.affiliate.findMany({
      where: { shopId, [column]: { in: part } },
      select: { id: true, email: true, referralCode: true },
    });
    for (const row of rows) found.set(row[column], row.id);
  }
  return found;
}

async function existingCoupons(db: ShopDb, codes: string[]) {
  const shopId = db.$shopId;
  const found = new Set<string>();
  for (const part of chunks([...new Set(codes)], IN_CHUNK)) {
    const rows = await db.coupon.findMany({ where: { shopId, code: { in: part } }, select: { code: true } });
    for (const row of rows) found.add(row.code);
  }
  return found;
}

/** Checks every parsed row against the shop and the rows above it; builds the inserts. */
async function plan(db: ShopDb, rows: ParsedRow[], errors: ImportError[]) {
  const shopId = db.$shopId;
  const uplines = rows.map((r) => r.form.upline).filter((u): u is string => Boolean(u));
  const [campaigns, emails, codes, coupons, uplineEmails, uplineCodes] = await Promise.all([
    db.campaign.findMany({
      where: { shopId },
      select: { id: true, name: true, isDefault: true, autoApproveAffiliates: true, createdAt: true },
      orderBy: { createdAt: "asc" },
    }),
    existing(
      db,
      "email",
      rows.map((r) => r.form.email),
    ),
    existing(db, "referralCode", [
      ...rows.map((r) => r.form.referral_code ?? referralCodeBase(r.form.first_name, r.form.last_name)),
    ]),
    existingCoupons(
      db,
      rows.flatMap((r) => r.form.coupon_codes),
    ),
    existing(
      db,
      "email",
      uplines.filter((u) => u.includes("@")).map((u) => u.toLowerCase()),
    ),
    existing(
      db,
      "referralCode",
      uplines.filter((u) => !u.includes("@")).map((u) => u.toUpperCase()),
    ),
  ]);
  const fallback = campaigns.find((c) => c.isDefault);
  // What the rows above claim, with the id each new affiliate will have.
  const fileEmails = new Map<string, string>();
  const fileCodes = new Map<string, string>();
  const fileCoupons = new Set<string>();
  const affiliates: NewAffiliate[] = [];
  const couponRows: { shopId: string; affiliateId: string; code: string; shopifyStatus: string }[] = [];
  const fail = (row: number, column: string, message: string) => errors.push({ row, column, message });

  for (const { row, form, campaign: campaignRef } of rows) {
    const before = errors.length;
    let campaign = fallback;
    if (campaignRef) {
      const matches = campaigns.filter(
        (c) => c.id === campaignRef || c.name.toLowerCase() === campaignRef.toLowerCase(),
      );
      campaign = matches.length === 1 ? matches[0] : undefined;
      if (matches.length !== 1)
        fail(
          row,
          "campaign",
          matches.length
            ? "Several campaigns have this name; use the campaign's id"
            : "No campaign with this name or id",
        );
    } else if (!campaign) fail(row, "campaign", "This shop has no default campaign: name a campaign");

    if (emails.has(form.email) || fileEmails.has(form.email)) fail(row, "email", TAKEN.email(form.email));

    let code = form.referral_code;
    if (code && (codes.has(code) || fileCodes.has(code))) fail(row, "referral_code", TAKEN.referralCode(code));
    if (!code) {
      const base = referralCodeBase(form.first_name, form.last_name);
      code = base;
      // A taken base gets eight random digits: a clash among 10^8 is left to the unique index.
      while (codes.has(code) || fileCodes.has(code)) code = `${base}${randomInt(10_000_000, 100_000_000)}`;
    }

    const coupon = form.coupon_codes.find((c) => coupons.has(c) || fileCoupons.has(c));
    if (coupon) fail(row, "coupon_codes", TAKEN.coupon(coupon));

    let parentId: string | null = null;
    if (form.upline) {
      const key = form.upline.includes("@") ? form.upline.toLowerCase() : form.upline.toUpperCase();
      const byEmail = form.upline.includes("@");
      parentId =
        (byEmail ? (uplineEmails.get(key) ?? fileEmails.get(key)) : (uplineCodes.get(key) ?? fileCodes.get(key))) ??
        null;
      if (!parentId)
        fail(row, "upline", "No affiliate with this referral code or e-mail (above this row or in the shop)");
    }

    if (errors.length > before || !campaign) continue;
    const id = randomUUID();
    fileEmails.set(form.email, id);
    fileCodes.set(code, id);
    for (const c of form.coupon_codes) {
      fileCoupons.add(c);
      couponRows.push({ shopId, affiliateId: id, code: c, shopifyStatus: "pending" });
    }
    affiliates.push({
      id,
      shopId,
      campaignId: campaign.id,
      parentId,
      email: form.email,
      firstName: form.first_name,
      lastName: form.last_name,
      status: form.status ?? (campaign.autoApproveAffiliates ? "approved" : "pending"),
      referralCode: code,
    });
  }
  return { affiliates, couponRows };
}

/** `room`: how many more affiliates the shop's plan takes (null: no limit); a larger file imports nothing. */
export async function importAffiliatesCsv(
  db: ShopDb,
  text: string,
  options: { room?: number | null } = {},
): Promise<ImportResult> {
  const parsed = parseAffiliateCsv(text);
  const errors = [...parsed.errors];
  const { affiliates, couponRows } = parsed.rows.length
    ? await plan(db, parsed.rows, errors)
    : { affiliates: [], couponRows: [] };
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    return { ok: false, errors: errors.slice(0, MAX_REPORTED) };
  }
  const room = options.room ?? null;
  if (room !== null && affiliates.length > room) {
    throw new AppError("conflict", msg("Plans:errors.importLimit", { number: affiliates.length, room }));
  }
  try {
    await db.$transaction(
      async (tx) => {
        // In file order: an upline row is always inserted before its recruits.
        // Large chunks (few statements) while staying under SQLite's 32,766
        // bound parameters per statement (about 14 per affiliate, 5 per coupon).
        for (const part of chunks(affiliates, 1000)) await tx.affiliate.createMany({ data: part });
        for (const part of chunks(couponRows, 2000)) await tx.coupon.createMany({ data: part });
        // Their codes go to Shopify after the commit, a job per affiliate.
        const now = new Date();
        const pushes = [...new Set(couponRows.map((c) => c.affiliateId))].map((affiliateId) =>
          jobRow("coupons.push", { affiliateId }, { now }),
        );
        for (const part of chunks(pushes, 1000)) await tx.job.createMany({ data: part });
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
  } catch (error) {
    if ((error as { code?: string })?.code === "P2002") {
      throw new AppError(
        "conflict",
        "An e-mail, referral code or coupon code was taken meanwhile; nothing was imported. Import again.",
      );
    }
    throw error;
  }
  return { ok: true, imported: affiliates.length };
}
