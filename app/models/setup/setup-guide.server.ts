import { z } from "zod";
import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { shopSettingsObject } from "../settings/shop-settings";
import { setupGuide, type SetupGuide } from "./setup-guide";

export const dismissSetupSchema = z.object({ intent: z.literal("dismiss_setup") });

// Reads what the setup guide ticks from the shop's data. The app cannot see
// the theme, so the app embed counts as on once it has shown it works: a
// visit it reported through the app proxy, or an order it credited by link.

export async function loadSetupGuide(db: ShopDb, settingsText: string): Promise<SetupGuide & { dismissed: boolean }> {
  const settings = shopSettingsObject(settingsText);
  const saved = settings.setupGuide as { dismissedAt?: string } | undefined;
  const [embedClick, linkOrder, campaign, portal, affiliate, sale] = await Promise.all([
    db.click.findFirst({ where: { source: "proxy" }, select: { id: true } }),
    db.order.findFirst({ where: { attributionSource: "link" }, select: { id: true } }),
    db.campaign.findFirst({ select: { id: true } }),
    db.portalPage.findFirst({ where: { publishedAt: { not: null } }, select: { id: true } }),
    db.affiliate.findFirst({ where: { status: "approved" }, select: { id: true } }),
    db.order.findFirst({ where: { affiliateId: { not: null } }, select: { id: true } }),
  ]);
  const guide = setupGuide({
    appEmbed: Boolean(embedClick || linkOrder),
    campaign: Boolean(campaign),
    portal: Boolean(portal),
    // Saved once on Settings › Payment (the defaults alone are not a choice).
    payoutMethod: settings.payment !== undefined && settings.payment !== null,
    affiliateApproved: Boolean(affiliate),
    firstSale: Boolean(sale),
  });
  return { ...guide, dismissed: Boolean(saved?.dismissedAt) };
}

/** Hides the guide for every user of the shop; it is for the first steps, so it does not come back. */
export async function dismissSetupGuide(db: ShopDb, now = new Date()) {
  await saveShopSetting(db, db.$shopId, "setupGuide", { dismissedAt: now.toISOString() });
  return { dismissed: true };
}
