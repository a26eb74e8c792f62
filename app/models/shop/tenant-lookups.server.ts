import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";

// Existence checks through a shop's client: an id of another shop is "not
// found", exactly like an id that does not exist.
const select = { id: true } as const;

function found<T>(noun: string) {
  return (row: T | null): T => {
    if (!row) throw new AppError("not_found", `No ${noun} with this id.`);
    return row;
  };
}

export const requireCampaign = (db: ShopDb, id: string) =>
  db.campaign.findFirst({ where: { id }, select }).then(found("campaign"));
export const requireAffiliate = (db: ShopDb, id: string) =>
  db.affiliate.findFirst({ where: { id }, select }).then(found("affiliate"));
