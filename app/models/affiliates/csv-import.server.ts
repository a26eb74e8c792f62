import type { Db } from "../../db.server";
import { shopDb, type ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { randomInt, randomUUID } from "node:crypto";
import { chunks } from "../../lib/chunks";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { isFinished, runImportInChunks } from "../csv/import-job.server";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
import { referralCodeBase } from "./affiliate-writes.server";
import { parseAffiliateCsv, type ImportError, type ParsedRow } from "./csv-format";
import { parseAppAffiliateCsv } from "./app-import-csv";
import type { ImportFormat } from "./app-import-formats";

// CSV import as a job. The upload checks the file itself (header, size) and
// the plan's room, then stores every row in an AffiliateImport and queues
// "affiliates.import"; the page polls the import's progress. The job takes
// the rows in chunks of CHUNK (csv/import-job.server.ts: each chunk commits
// alone with its progress, and no row is imported twice). Each row ends as one of:
// - imported: a new affiliate (an upline may name a row above or an affiliate of the shop);
// - merged: an affiliate of the shop has this e-mail. Merging fills the
//   fields that are empty on the affiliate (first and last name) and never
//   overwrites anything: status, campaign, referral code, coupons and upline
//   stay as they are (an upline set by a file could close a cycle);
// - refused: the row's own problems (the form's zod schema), an unknown
//   campaign or upline, a taken referral code or coupon.
// Other apps' exports (app-import-formats.ts) end as the same rows; an
// affiliate's old link code that is not their referral code here is kept as
// a ReferralAlias (new affiliates and merged ones alike), so links handed out
// before the switch keep crediting them (ADR 048).
// Reasons are stored as translation keys with values, shown in the reader's language.

export type StartResult = { ok: true; importId: string; total: number } | { ok: false; errors: ImportError[] };

const CHUNK = 100;

type StoredRow = {
  row: number;
  form?: ParsedRow["form"];
  campaign?: string;
  errors?: ImportError[];
  /** The old link code to keep as an alias (other apps' files). */
  alias?: string | null;
  /** An old code that could not be kept. */
  oldCodeLost?: string | null;
};

export interface ReportLine {
  row: number;
  outcome: "merged" | "refused" | "imported";
  column: string;
  /** A translation key with its values (msg()), or the schema's text. */
  message: string;
}

const reason = (key: string, values?: Record<string, string>) => msg(`Affiliates:importJob.reasons.${key}`, values);

/** Checks the file, stores its rows and queues the job; a file that cannot be read is refused whole. */
export async function startAffiliateImport(
  db: ShopDb,
  text: string,
  options: { room?: number | null; format?: ImportFormat } = {},
): Promise<StartResult> {
  const format = options.format ?? "csv";
  const parsed = format === "csv" ? parseAffiliateCsv(text) : parseAppAffiliateCsv(format, text);
  if (parsed.fileErrors.length) return { ok: false, errors: parsed.fileErrors };
  const byRow = new Map<number, StoredRow>();
  for (const r of parsed.rows as (ParsedRow & Partial<Pick<StoredRow, "alias" | "oldCodeLost">>)[])
    byRow.set(r.row, {
      row: r.row,
      form: r.form,
      campaign: r.campaign,
      ...(r.alias ? { alias: r.alias } : {}),
      ...(r.oldCodeLost ? { oldCodeLost: r.oldCodeLost } : {}),
    });
  for (const e of parsed.errors) {
    const stored = byRow.get(e.row) ?? { row: e.row, errors: [] };
    stored.errors = [...(stored.errors ?? []), e];
    delete stored.form;
    byRow.set(e.row, stored);
  }
  const rows = [...byRow.values()].sort((a, b) => a.row - b.row);
  const room = options.room ?? null;
  if (room !== null) {
    // Rows whose e-mail the shop has already merge and take no room.
    const emails = [...new Set(rows.flatMap((r) => (r.form ? [r.form.email] : [])))];
    let known = 0;
    for (const part of chunks(emails, 500))
      known += await db.affiliate.count({ where: { shopId: db.$shopId, email: { in: part } } });
    const adds = emails.length - known;
    if (adds > room) throw new AppError("conflict", msg("Plans:errors.importLimit", { number: adds, room }));
  }
  const created = await db.$transaction(async (tx) => {
    const record = await tx.affiliateImport.create({
      data: { shopId: db.$shopId, rows: JSON.stringify(rows), total: rows.length, format },
      select: { id: true },
    });
    await enqueueJob(tx, "affiliates.import", { shopId: db.$shopId, importId: record.id });
    return record;
  });
  return { ok: true, importId: created.id, total: rows.length };
}

/** What the page shows: progress, counts and the report (a GET reads only this). */
export async function affiliateImportStatus(db: ShopDb, importId: string) {
  const record = await db.affiliateImport.findFirst({
    where: { id: importId, shopId: db.$shopId },
    select: {
      id: true,
      status: true,
      total: true,
      processed: true,
      imported: true,
      merged: true,
      refused: true,
      format: true,
      report: true,
      createdAt: true,
      finishedAt: true,
    },
  });
  if (!record) throw new AppError("not_found", "This import does not exist.");
  return { ...record, report: JSON.parse(record.report) as ReportLine[] };
}

interface Chunk {
  affiliates: {
    id: string;
    shopId: string;
    campaignId: string;
    parentId: string | null;
    email: string;
    firstName: string;
    lastName: string;
    status: string;
    referralCode: string;
  }[];
  coupons: { shopId: string; affiliateId: string; code: string; shopifyStatus: string }[];
  aliases: { shopId: string; affiliateId: string; code: string; source: string }[];
  fills: { id: string; data: { firstName?: string; lastName?: string } }[];
  report: ReportLine[];
  imported: number;
  merged: number;
  refused: number;
}

/** Decides each row of a chunk against the shop as it is now (rows of earlier chunks included). */
async function planChunk(tx: Tx, shopId: string, rows: StoredRow[], source: string): Promise<Chunk> {
  const forms = rows.flatMap((r) => (r.form ? [r.form] : []));
  const oldCodes = rows.flatMap((r) => (r.form ? [r.alias ?? r.form.referral_code ?? ""] : [])).filter(Boolean);
  const uplines = forms.map((f) => f.upline).filter((u): u is string => Boolean(u));
  const emails = [
    ...new Set([...forms.map((f) => f.email), ...uplines.filter((u) => u.includes("@")).map((u) => u.toLowerCase())]),
  ];
  const codes = [
    ...new Set([
      ...forms.map((f) => f.referral_code ?? referralCodeBase(f.first_name, f.last_name)),
      ...uplines.filter((u) => !u.includes("@")).map((u) => u.toUpperCase()),
      ...oldCodes,
    ]),
  ];
  const [campaigns, byEmail, byCode, couponRows, aliasRows] = await Promise.all([
    tx.campaign.findMany({
      where: { shopId },
      select: { id: true, name: true, isDefault: true, autoApproveAffiliates: true },
      orderBy: { createdAt: "asc" },
    }),
    tx.affiliate.findMany({
      where: { shopId, email: { in: emails } },
      select: { id: true, email: true, firstName: true, lastName: true, referralCode: true },
    }),
    tx.affiliate.findMany({ where: { shopId, referralCode: { in: codes } }, select: { id: true, referralCode: true } }),
    tx.coupon.findMany({
      where: { shopId, code: { in: forms.flatMap((f) => f.coupon_codes) } },
      select: { code: true },
    }),
    tx.referralAlias.findMany({ where: { shopId, code: { in: codes } }, select: { code: true, affiliateId: true } }),
  ]);
  const fallback = campaigns.find((c) => c.isDefault);
  const emailIds = new Map(byEmail.map((a) => [a.email, a.id]));
  const existingByEmail = new Map(byEmail.map((a) => [a.email, a]));
  const codeIds = new Map(byCode.map((a) => [a.referralCode, a.id]));
  const takenCoupons = new Set(couponRows.map((c) => c.code));
  // Codes kept from other apps: an alias names one affiliate, and no referral code may equal one.
  const aliasOwner = new Map(aliasRows.map((a) => [a.code, a.affiliateId]));
  const codeOwner = (code: string) => codeIds.get(code) ?? aliasOwner.get(code);
  const out: Chunk = {
    affiliates: [],
    coupons: [],
    aliases: [],
    fills: [],
    report: [],
    imported: 0,
    merged: 0,
    refused: 0,
  };
  const newByEmail = new Map<string, Chunk["affiliates"][number]>();

  for (const { row, form, campaign: campaignRef, errors, alias, oldCodeLost } of rows) {
    if (!form) {
      out.refused++;
      for (const e of errors ?? []) out.report.push({ row, outcome: "refused", column: e.column, message: e.message });
      continue;
    }
    const existing = existingByEmail.get(form.email);
    const pending = newByEmail.get(form.email);
    if (existing || pending) {
      const target = existing ?? pending!;
      const data: { firstName?: string; lastName?: string } = {};
      if (!target.firstName && form.first_name) data.firstName = form.first_name;
      if (!target.lastName && form.last_name) data.lastName = form.last_name;
      Object.assign(target, data);
      if (existing && Object.keys(data).length) out.fills.push({ id: existing.id, data });
      const filled = Object.keys(data).map((k) => (k === "firstName" ? "first_name" : "last_name"));
      out.merged++;
      out.report.push({
        row,
        outcome: "merged",
        column: "email",
        message: filled.length
          ? reason("mergedFilled", { email: form.email, fields: filled.join(", ") })
          : reason("mergedNothing", { email: form.email }),
      });
      // The affiliate's old code from another app keeps crediting them.
      const old = alias ?? (source !== "csv" ? form.referral_code : undefined);
      if (old && old !== target.referralCode) {
        const owner = codeOwner(old);
        if (!owner) {
          aliasOwner.set(old, target.id);
          out.aliases.push({ shopId, affiliateId: target.id, code: old, source });
          out.report.push({
            row,
            outcome: "merged",
            column: "referral_code",
            message: reason("aliasKept", { code: old }),
          });
        } else if (owner !== target.id)
          out.report.push({
            row,
            outcome: "merged",
            column: "referral_code",
            message: reason("aliasTaken", { code: old }),
          });
      }
      if (oldCodeLost)
        out.report.push({
          row,
          outcome: "merged",
          column: "referral_code",
          message: reason("oldCodeLost", { code: oldCodeLost }),
        });
      continue;
    }

    const problems: ReportLine[] = [];
    const fail = (column: string, message: string) => problems.push({ row, outcome: "refused", column, message });
    let campaign = fallback;
    if (campaignRef) {
      const matches = campaigns.filter(
        (c) => c.id === campaignRef || c.name.toLowerCase() === campaignRef.toLowerCase(),
      );
      campaign = matches.length === 1 ? matches[0] : undefined;
      if (matches.length !== 1) fail("campaign", reason(matches.length ? "campaignAmbiguous" : "campaignUnknown"));
    } else if (!campaign) fail("campaign", reason("noDefaultCampaign"));

    let code = form.referral_code;
    if (code && codeOwner(code)) fail("referral_code", reason("referralCodeTaken", { code }));
    if (alias && codeOwner(alias)) fail("referral_code", reason("aliasTaken", { code: alias }));
    if (!code) {
      const base = referralCodeBase(form.first_name, form.last_name);
      code = base;
      // A taken base gets eight random digits: a clash among 10^8 is left to the unique index.
      while (codeOwner(code) || code === alias) code = `${base}${randomInt(10_000_000, 100_000_000)}`;
    }
    const coupon = form.coupon_codes.find((c) => takenCoupons.has(c));
    if (coupon) fail("coupon_codes", reason("couponTaken", { code: coupon }));

    let parentId: string | null = null;
    if (form.upline) {
      const viaEmail = form.upline.includes("@");
      parentId = (viaEmail ? emailIds.get(form.upline.toLowerCase()) : codeIds.get(form.upline.toUpperCase())) ?? null;
      if (!parentId) fail("upline", reason("uplineUnknown"));
    }

    if (problems.length || !campaign) {
      out.refused++;
      out.report.push(...problems);
      continue;
    }
    const id = randomUUID();
    emailIds.set(form.email, id);
    codeIds.set(code, id);
    if (alias) {
      aliasOwner.set(alias, id);
      out.aliases.push({ shopId, affiliateId: id, code: alias, source });
    }
    if (oldCodeLost)
      out.report.push({
        row,
        outcome: "imported",
        column: "referral_code",
        message: reason("oldCodeLost", { code: oldCodeLost }),
      });
    for (const c of form.coupon_codes) {
      takenCoupons.add(c);
      out.coupons.push({ shopId, affiliateId: id, code: c, shopifyStatus: "pending" });
    }
    const affiliate = {
      id,
      shopId,
      campaignId: campaign.id,
      parentId,
      email: form.email,
      firstName: form.first_name,
      lastName: form.last_name,
      status: form.status ?? (campaign.autoApproveAffiliates ? "approved" : "pending"),
      referralCode: code,
    };
    newByEmail.set(form.email, affiliate);
    out.affiliates.push(affiliate);
    out.imported++;
  }
  return out;
}

/**
 * The "affiliates.import" job: processes the import's rows from `processed`
 * on, one committed chunk at a time (runImportInChunks). Safe to run again:
 * a chunk that another run committed first makes this one's compare-and-set
 * miss, and it rolls back.
 */
export async function runAffiliateImport(
  base: Db,
  payload: { shopId: string; importId: string },
  options: { chunkSize?: number; afterChunk?: () => void | Promise<void> } = {},
) {
  const db = shopDb(base, payload.shopId);
  const record = await db.affiliateImport.findFirst({
    where: { id: payload.importId, shopId: payload.shopId },
    select: { rows: true, status: true, format: true },
  });
  if (!record || isFinished(record.status)) return;
  const rows = JSON.parse(record.rows) as StoredRow[];
  const where = { id: payload.importId, shopId: payload.shopId };
  await runImportInChunks(
    db,
    rows,
    {
      read: (tx) => tx.affiliateImport.findFirst({ where, select: { processed: true, report: true, status: true } }),
      advance: async (tx, from, data) =>
        (
          await tx.affiliateImport.updateMany({
            where: { ...where, processed: from },
            data: {
              processed: data.processed,
              imported: { increment: data.increments.imported },
              merged: { increment: data.increments.merged },
              refused: { increment: data.increments.refused },
              report: data.report,
              status: data.status,
              finishedAt: data.finishedAt,
            },
          })
        ).count,
    },
    async (tx, part) => {
      const chunk = await planChunk(tx, payload.shopId, part, record.format);
      // In file order: an upline row is always inserted before its recruits.
      if (chunk.affiliates.length) await tx.affiliate.createMany({ data: chunk.affiliates });
      if (chunk.coupons.length) await tx.coupon.createMany({ data: chunk.coupons });
      if (chunk.aliases.length) await tx.referralAlias.createMany({ data: chunk.aliases });
      // Their codes go to Shopify after the commit, a job per affiliate.
      if (chunk.coupons.length) {
        const now = new Date();
        const pushes = [...new Set(chunk.coupons.map((c) => c.affiliateId))].map((affiliateId) =>
          jobRow("coupons.push", { affiliateId }, { now }),
        );
        await tx.job.createMany({ data: pushes });
      }
      for (const fill of chunk.fills) await tx.affiliate.update({ where: { id: fill.id }, data: fill.data });
      return {
        counts: { imported: chunk.imported, merged: chunk.merged, refused: chunk.refused },
        report: chunk.report,
      };
    },
    { chunkSize: options.chunkSize ?? CHUNK, afterChunk: options.afterChunk },
  );
}

/** The job's last attempt failed: the import stops where it is, and the page says so. */
export async function failAffiliateImport(base: Db, payload: { shopId: string; importId: string }) {
  await shopDb(base, payload.shopId).affiliateImport.updateMany({
    where: { id: payload.importId, status: { in: ["queued", "running"] } },
    data: { status: "failed", finishedAt: new Date() },
  });
}
