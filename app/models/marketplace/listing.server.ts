import { getConfig } from "../../config.server";
import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { knownAssetPaths } from "../storage/asset-storage.server";
import type { ListingForm } from "./listing-form";

const EMPTY: ListingForm = {
  listed: false,
  title: "",
  description: "",
  commissionSummary: "",
  category: "other",
  logoUrl: "",
};

/** The shop's offer as the settings form edits it (an empty one before the first save). */
export async function marketplaceListing(db: ShopDb): Promise<ListingForm> {
  const row = await db.marketplaceListing.findUnique({ where: { shopId: db.$shopId } });
  if (!row) return { ...EMPTY };
  return {
    listed: row.listed,
    title: row.title,
    description: row.description,
    commissionSummary: row.commissionSummary,
    category: (row.category as ListingForm["category"]) ?? "other",
    logoUrl: row.logoUrl,
  };
}

/** Saves the offer; the logo must be an image this shop uploaded. */
export async function saveMarketplaceListing(db: ShopDb, input: ListingForm): Promise<ListingForm> {
  if (input.logoUrl && !(await knownAssetPaths(db.$shopId)).includes(input.logoUrl)) {
    const message = msg("Settings.Marketplace:validation.logo");
    throw new AppError("validation_failed", message, { fields: { logoUrl: message } });
  }
  await db.marketplaceListing.upsert({
    where: { shopId: db.$shopId },
    create: { shopId: db.$shopId, ...input },
    update: input,
  });
  return input;
}

/** What Settings > Marketplace shows: the offer and where affiliates find it. */
export async function marketplaceSettings(db: ShopDb) {
  return { listing: await marketplaceListing(db), marketplaceUrl: `${getConfig().appUrl}/marketplace` };
}
