import type { ShopDb } from "../../db/shop-db.server";
import { withShopSetting } from "../shop/shop-settings";
import { readPromoteLink, type PromoteLink } from "./promote-link";

export async function getPromoteLink(db: ShopDb): Promise<PromoteLink> {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, referralParam: true },
  });
  return readPromoteLink(shop.settings, shop.referralParam);
}

/** Saves the tab; other keys of the settings JSON are kept as they are. */
export async function savePromoteLink(db: ShopDb, input: PromoteLink): Promise<PromoteLink> {
  const { referral_param, ...rest } = input;
  return db.$transaction(async (tx) => {
    const shop = await tx.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
    const updated = await tx.shop.update({
      where: { id: db.$shopId },
      data: { referralParam: referral_param, settings: withShopSetting(shop.settings, "promoteLink", rest) },
      select: { settings: true, referralParam: true },
    });
    return readPromoteLink(updated.settings, updated.referralParam);
  });
}
