import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { leakSettingsOf, type LeakSettings } from "./detect-leak";

// Settings › Marketings › Leak watch (ADR 051): the thresholds the leak check
// reads from Shop.settings.leakWatch, defaults for anything missing.

export async function getLeakSettings(db: ShopDb): Promise<LeakSettings> {
  const shop = await db.shop.findFirst({ where: { id: db.$shopId }, select: { settings: true } });
  return leakSettingsOf(shop?.settings);
}

/** Saves the whole card (validated by leakSettingsSchema in the door), the shop's other settings kept. */
export async function saveLeakSettings(db: ShopDb, settings: LeakSettings): Promise<LeakSettings> {
  const text = await saveShopSetting(db, db.$shopId, "leakWatch", settings);
  return leakSettingsOf(text);
}
