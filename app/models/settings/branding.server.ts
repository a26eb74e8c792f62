import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { assetStorage } from "../storage/asset-storage.server";
import { saveShopSetting } from "./save-shop-setting.server";
import { readBranding, type Branding } from "./branding";

export async function getBranding(db: ShopDb): Promise<Branding> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return readBranding(shop.settings);
}

/** Saves the tab; the logo and favicon must be images this shop uploaded. */
export async function saveBranding(db: ShopDb, input: Branding): Promise<Branding> {
  const uploads = new Set(await (await assetStorage()).list(db.$shopId));
  for (const field of ["logo", "favicon"] as const) {
    if (input[field] && !uploads.has(input[field]))
      throw new AppError("validation_failed", msg("Settings.Branding:validation.image"), {
        fields: { [field]: msg("Settings.Branding:validation.image") },
      });
  }
  return readBranding(await saveShopSetting(db, db.$shopId, "branding", input));
}
