import { getConfig } from "../../config.server";
import { parseDatabaseUrl } from "../../db/database-url";
import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import type { Prisma } from "../../db/generated/sqlite";
import type { Tx } from "../../db/transaction";
import { ADMIN_PAGE_SIZE } from "../pagination/keyset.server";
import {
  formFieldErrors,
  type AffiliateForm,
  type AffiliateListQuery,
  type AffiliateSort,
  type StatusAction,
} from "./admin-schemas";
import { insertAffiliate, mapUniqueViolation, patchAffiliate } from "./affiliate-writes.server";
import { ACTION_TARGET, statusesFor } from "./status-transitions";
import { prismaBulk } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import { emitEvents } from "../events/emit-event.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";

// The merchant admin's affiliate list, forms and approvals. Every query is
// scoped to the shop; an id of another shop is "not found".

const ORDER: Record<AffiliateSort, Prisma.AffiliateOrderByWithRelationInput[]> = {
  "created desc": [{ createdAt: "desc" }, { id: "desc" }],
  "created asc": [{ createdAt: "asc" }, { id: "asc" }],
  "name asc": [{ firstName: "asc" }, { lastName: "asc" }, { id: "asc" }],
  "name desc": [{ firstName: "desc" }, { lastName: "desc" }, { id: "desc" }],
  "email asc": [{ email: "asc" }],
  "email desc": [{ email: "desc" }],
};

/** The columns every admin view of an affiliate shows (list, page, export). */
export const AFFILIATE_SUMMARY = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  status: true,
  referralCode: true,
  createdAt: true,
} as const;

/** PostgreSQL's LIKE is case-sensitive; SQLite's already ignores ASCII case (and rejects `mode`). */
function textMatch(q: string) {
  const insensitive = parseDatabaseUrl(getConfig().DATABASE_URL).provider === "postgresql";
  return { contains: q, ...(insensitive ? { mode: "insensitive" as const } : {}) };
}

export function affiliateWhere(
  shopId: string,
  query: Pick<AffiliateListQuery, "q" | "status" | "campaign"> & { tag?: string },
) {
  const where: Prisma.AffiliateWhereInput = { shopId };
  if (query.status) where.status = query.status;
  if (query.campaign) where.campaignId = query.campaign;
  if (query.tag) where.tags = { some: { shopId, tag: query.tag } };
  if (query.q) {
    const words = query.q.split(/\s+/).filter(Boolean).slice(0, 5);
    // Every word must match one of the columns: "jane doe" finds Jane Doe.
    where.AND = words.map((word) => ({
      OR: [
        { email: textMatch(word.toLowerCase()) },
        { firstName: textMatch(word) },
        { lastName: textMatch(word) },
        { referralCode: textMatch(word.toUpperCase()) },
      ],
    }));
  }
  return where;
}

export async function listAdminAffiliates(db: ShopDb, query: AffiliateListQuery) {
  const where = affiliateWhere(db.$shopId, query);
  const [total, rows, campaigns, tags] = await Promise.all([
    db.affiliate.count({ where }),
    db.affiliate.findMany({
      where,
      orderBy: ORDER[query.sort],
      skip: (query.page - 1) * ADMIN_PAGE_SIZE,
      take: ADMIN_PAGE_SIZE,
      // The list shows the campaign's name only (the rows go to the page as JSON).
      select: { ...AFFILIATE_SUMMARY, campaign: { select: { name: true } } },
    }),
    listCampaignChoices(db),
    listTagChoices(db),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
    campaigns,
    tags,
  };
}

/** The shop's tags for the list's filter (distinct, bounded: labels, not data). */
async function listTagChoices(db: ShopDb) {
  const rows = await db.affiliateTag.findMany({
    where: { shopId: db.$shopId },
    distinct: ["tag"],
    orderBy: { tag: "asc" },
    take: 200,
    select: { tag: true },
  });
  return rows.map((r) => r.tag);
}

/** Campaigns to choose from (a shop has a handful; bounded anyway). */
export function listCampaignChoices(db: ShopDb) {
  return db.campaign.findMany({
    orderBy: [{ isDefault: "desc" }, { name: "asc" }],
    take: 500,
    select: { id: true, name: true, isDefault: true },
  });
}

/**
 * Applies approve / deny / deactivate to the listed affiliates of the shop,
 * to those whose status allows it; the others are counted as skipped. If any
 * id is not this shop's, nothing changes and the answer is 404.
 */
export async function setAffiliatesStatus(db: ShopDb, ids: string[], action: StatusAction) {
  const unique = [...new Set(ids)];
  const target = ACTION_TARGET[action];
  const from = new Set<string>(statusesFor(action));
  const result = await db.$transaction(
    async (tx) => {
      // Bulk statements with the ids as one JSON parameter (bulk-sql.server.ts):
      // a selection of thousands read, changed and announced in a few
      // statements, where Prisma's `in` lists cost the request seconds. Raw
      // SQL is not scoped by ShopDb, so the shop is named here.
      const bulk = prismaBulk(tx, dialectOf(tx));
      // A write first: on SQLite the transaction then holds the write lock
      // from the start (waiting for it if need be), instead of reading and
      // then failing with "database is locked" when the job worker wrote in
      // between. Changes no row; harmless on PostgreSQL.
      await tx.$executeRawUnsafe(`UPDATE "Affiliate" SET "status" = "status" WHERE 1 = 0`);
      const rows = await bulk
        .from("Affiliate")
        .findIn<{ id: string; status: string }>(["id", "status"], { shopId: db.$shopId }, "id", unique);
      if (rows.length !== unique.length) throw new AppError("not_found", "No affiliate with this id.");
      const changing = rows.filter((row) => from.has(row.status)).map((row) => row.id);
      await bulk.updateIn(
        "Affiliate",
        { status: target, updatedAt: new Date() },
        { shopId: db.$shopId },
        "id",
        changing,
      );
      if (changing.length && (target === "approved" || target === "denied")) {
        const type = target === "approved" ? "affiliate.approved" : "affiliate.denied";
        await emitEvents(
          tx,
          db.$shopId,
          type,
          changing.map((affiliateId) => ({ affiliateId })),
        );
      }
      return { changed: changing.length, skipped: unique.length - changing.length };
    },
    { timeout: 30_000 },
  );
  notifyJobsEnqueued();
  return result;
}

/** The affiliate an upline field names: a referral code, or an e-mail. */
async function resolveUpline(tx: Tx, shopId: string, upline: string | undefined): Promise<string | null> {
  if (!upline) return null;
  const where = upline.includes("@")
    ? { shopId, email: upline.toLowerCase() }
    : { shopId, referralCode: upline.toUpperCase() };
  const row = await tx.affiliate.findFirst({ where, select: { id: true } });
  if (!row) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { parent_id: "No affiliate with this referral code or e-mail" },
    });
  }
  return row.id;
}

/** Renames the domain's field paths to the form's, keeping code and message. */
function asFormError(error: unknown): never {
  if (error instanceof AppError && error.fields) {
    throw new AppError(error.code, error.message, { fields: formFieldErrors(error.fields), headers: error.headers });
  }
  throw error;
}

/** Adds an affiliate by hand (the admin's "Add affiliate" form). */
export async function createAffiliateFromForm(tx: Tx, shopId: string, form: AffiliateForm) {
  const parentId = await resolveUpline(tx, shopId, form.upline);
  return insertAffiliate(tx, shopId, { ...form, parent_id: parentId }, "admin");
}

export async function addAffiliate(db: ShopDb, form: AffiliateForm) {
  const created = await db
    .$transaction((tx) => createAffiliateFromForm(tx, db.$shopId, form))
    .catch(mapUniqueViolation)
    .catch(asFormError);
  notifyJobsEnqueued();
  return created;
}

/** Saves the detail page's form: every field, the upline cleared when blank. */
export async function saveAffiliate(db: ShopDb, id: string, form: AffiliateForm) {
  return db
    .$transaction(async (tx) => {
      const parentId = await resolveUpline(tx, db.$shopId, form.upline);
      const { upline: _upline, referral_code, ...rest } = form;
      return patchAffiliate(tx, db.$shopId, id, {
        ...rest,
        ...(referral_code ? { referral_code } : {}),
        parent_id: parentId,
      });
    })
    .catch(mapUniqueViolation)
    .catch(asFormError);
}
