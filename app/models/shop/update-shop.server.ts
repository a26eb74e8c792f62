import type { ShopDb } from "../../db/shop-db.server";
import type { ShopUpdate } from "./shop-update-schema";
import { toShopRecord, type ShopRecord } from "./shop-record";

export async function updateShop(db: ShopDb, input: ShopUpdate): Promise<ShopRecord> {
  const shopId = db.$shopId;
  const general = input.setting?.general;
  const shop = await db.shop.update({
    where: { id: shopId },
    data: {
      ...(input.money_format !== undefined ? { moneyFormat: input.money_format } : {}),
      ...(general?.language !== undefined ? { language: general.language } : {}),
      ...(general?.referral_param !== undefined ? { referralParam: general.referral_param } : {}),
    },
  });
  return toShopRecord(shop);
}
