import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { downgradeConsequences } from "./downgrade";
import { overLimit, planAllows, planOf, type PlanFeature, type PlanLimit } from "./plans";

// Limits and features of the shop's plan (docs/decisions/029). Downgrading
// never deletes: every row stays readable, the first `limit` rows by creation
// order stay editable and the rest are read-only until the merchant upgrades
// (or deletes older ones). Creation order, not name or status, so the same
// rows stay editable from one request to the next.

const ORDER = [{ createdAt: "asc" as const }, { id: "asc" as const }];

// Only the two tables with limits; a switch keeps Prisma's delegates typed.
function countOf(db: ShopDb, limit: PlanLimit) {
  return limit === "affiliates" ? db.affiliate.count() : db.campaign.count();
}

async function firstReadOnly(db: ShopDb, limit: PlanLimit, max: number) {
  const args = { orderBy: ORDER, skip: max, select: { id: true, createdAt: true } };
  return limit === "affiliates" ? db.affiliate.findFirst(args) : db.campaign.findFirst(args);
}

export async function planUsage(db: ShopDb, planId: string | null, limit: PlanLimit) {
  return overLimit(planId, limit, await countOf(db, limit));
}

/** Refuses to add `adding` more when that would pass the plan's limit (nothing is written). */
export async function requireRoomFor(db: ShopDb, planId: string | null, limit: PlanLimit, adding = 1) {
  const usage = await planUsage(db, planId, limit);
  if (usage.max !== null && usage.count + adding > usage.max) {
    throw new AppError(
      "conflict",
      msg(limit === "affiliates" ? "Plans:errors.affiliateLimit" : "Plans:errors.campaignLimit", { max: usage.max }),
    );
  }
}

/** What a change of plan would take away from this shop (the activate page says it before confirming). */
export async function planChangeConsequences(db: ShopDb, currentPlanId: string | null, targetPlanId: string) {
  const [campaigns, affiliates, mlmCampaigns] = await Promise.all([
    db.campaign.count(),
    db.affiliate.count(),
    db.campaign.count({ where: { levels: { some: {} } } }),
  ]);
  return downgradeConsequences(currentPlanId, targetPlanId, { campaigns, affiliates, mlmCampaigns });
}

const SHOWN = 20;

/**
 * The read-only rows of a list (over the limit after a downgrade): how many,
 * and the first few by name for the banner. `ids` says which of the rows on
 * screen are read-only.
 */
export async function readOnlyRows(db: ShopDb, planId: string | null, limit: PlanLimit, onScreen: string[] = []) {
  const max = planOf(planId).limits[limit];
  if (max === null) return { count: 0, names: [] as string[], ids: [] as string[] };
  const cut = await firstReadOnly(db, limit, max);
  if (!cut) return { count: 0, names: [] as string[], ids: [] as string[] };
  const where = after(cut);
  if (limit === "campaigns") {
    const [count, rows, mine] = await Promise.all([
      db.campaign.count({ where }),
      db.campaign.findMany({ where, orderBy: ORDER, take: SHOWN, select: { name: true } }),
      db.campaign.findMany({ where: { ...where, id: { in: onScreen } }, select: { id: true } }),
    ]);
    return { count, names: rows.map((r) => r.name), ids: mine.map((r) => r.id) };
  }
  const [count, rows, mine] = await Promise.all([
    db.affiliate.count({ where }),
    db.affiliate.findMany({ where, orderBy: ORDER, take: SHOWN, select: { email: true } }),
    db.affiliate.findMany({ where: { ...where, id: { in: onScreen } }, select: { id: true } }),
  ]);
  return { count, names: rows.map((r) => r.email), ids: mine.map((r) => r.id) };
}

// The rows at or after the first read-only one in creation order.
function after(cut: { id: string; createdAt: Date }) {
  return { OR: [{ createdAt: { gt: cut.createdAt } }, { createdAt: cut.createdAt, id: { gte: cut.id } }] };
}

/** Refuses an edit of any row that is over the plan's limit (403; the row stays readable). */
export async function requireEditable(db: ShopDb, planId: string | null, limit: PlanLimit, ids: string[]) {
  if (!ids.length) return;
  const { ids: locked } = await readOnlyRows(db, planId, limit, ids);
  if (!locked.length) return;
  const max = planOf(planId).limits[limit]!;
  throw new AppError(
    "forbidden",
    msg(limit === "affiliates" ? "Plans:errors.affiliateReadOnly" : "Plans:errors.campaignReadOnly", {
      max,
      number: locked.length,
    }),
  );
}

/** A feature above the shop's plan inside a form that is otherwise allowed (403 with the plan that has it). */
export function requireFeature(planId: string | null, feature: PlanFeature) {
  if (planAllows(planId, feature)) return;
  throw new AppError("forbidden", msg(`Plans:errors.feature.${feature}`));
}
