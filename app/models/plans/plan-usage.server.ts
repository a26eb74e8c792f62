import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { overLimit, type PlanLimit } from "./plans";

// Limits of the shop's plan (docs/decisions/029). Downgrading never deletes:
// the list shows everything with a banner saying why nothing can be added.

async function countOf(db: ShopDb, limit: PlanLimit) {
  return limit === "affiliates" ? db.affiliate.count() : db.campaign.count();
}

export async function planUsage(db: ShopDb, planId: string | null, limit: PlanLimit) {
  return overLimit(planId, limit, await countOf(db, limit));
}

/** Refuses to add one more when the plan's limit is reached (nothing is written). */
export async function requireRoomFor(db: ShopDb, planId: string | null, limit: PlanLimit) {
  const usage = await planUsage(db, planId, limit);
  if (usage.full) throw new AppError("conflict", `Your plan includes ${usage.max} ${limit}. Upgrade to add more.`);
}
