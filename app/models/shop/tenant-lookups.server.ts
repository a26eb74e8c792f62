import { getDb } from "../../db.server";

// Existence checks scoped to one shop: an id of another shop is "not found",
// exactly like an id that does not exist.
const select = { id: true } as const;

export const findCampaign = (shopId: string, id: string) =>
  getDb().campaign.findFirst({ where: { id, shopId }, select });
export const findAffiliate = (shopId: string, id: string) =>
  getDb().affiliate.findFirst({ where: { id, shopId }, select });
export const findOrder = (shopId: string, id: string) => getDb().order.findFirst({ where: { id, shopId }, select });
export const findPayout = (shopId: string, id: string) => getDb().payout.findFirst({ where: { id, shopId }, select });
