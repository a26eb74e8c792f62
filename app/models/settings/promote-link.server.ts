import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "./save-shop-setting.server";
import { readPromoteLink, type PromoteLink } from "./promote-link";

export async function getPromoteLink(db: ShopDb): Promise<PromoteLink> {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, referralParam: true, autoApplyDiscount: true },
  });
  return readPromoteLink(shop.settings, shop.referralParam, shop.autoApplyDiscount);
}

/** Saves the tab; other keys of the settings JSON are kept as they are. */
export async function savePromoteLink(db: ShopDb, input: PromoteLink): Promise<PromoteLink> {
  const { referral_param, auto_apply_discount, ...rest } = input;
  return db.$transaction(async (tx) => {
    await tx.shop.update({
      where: { id: db.$shopId },
      data: { referralParam: referral_param, autoApplyDiscount: auto_apply_discount },
    });
    const settings = await saveShopSetting(tx, db.$shopId, "promoteLink", rest);
    return readPromoteLink(settings, referral_param, auto_apply_discount);
  });
}
