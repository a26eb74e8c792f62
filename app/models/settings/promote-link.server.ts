import type { ShopDb } from "../../db/shop-db.server";
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
    let settings: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(shop.settings);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) settings = parsed as Record<string, unknown>;
    } catch {
      // an unreadable blob is replaced
    }
    const updated = await tx.shop.update({
      where: { id: db.$shopId },
      data: { referralParam: referral_param, settings: JSON.stringify({ ...settings, promoteLink: rest }) },
      select: { settings: true, referralParam: true },
    });
    return readPromoteLink(updated.settings, updated.referralParam);
  });
}
