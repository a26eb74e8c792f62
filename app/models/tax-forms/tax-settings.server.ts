import { randomUUID } from "node:crypto";
import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { requestTaxFormReminders } from "./tax-form-reminder.server";
import { taxSettingsOf, type TaxSettings } from "./tax-requirement";

export async function loadTaxSettings(db: ShopDb): Promise<TaxSettings> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return taxSettingsOf(shop.settings);
}

/** Saves Settings › Tax forms; payouts that now wait for a form get their reminder (by a job, after the commit). */
export async function saveTaxSettings(db: ShopDb, form: TaxSettings): Promise<TaxSettings> {
  return db.$transaction(async (tx) => {
    await saveShopSetting(tx, db.$shopId, "taxForms", form);
    if (form.require !== "off") await requestTaxFormReminders(tx, db.$shopId, randomUUID());
    return form;
  });
}
