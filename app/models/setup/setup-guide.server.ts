import { z } from "zod";
import { allPlans, countRows, mapPlan, runPlan } from "../dashboard/rollup-sql.server";
import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { shopSettingsObject } from "../settings/shop-settings";
import { setupGuide, type SetupGuide } from "./setup-guide";

export const dismissSetupSchema = z.object({ intent: z.literal("dismiss_setup") });

// Reads what the setup guide ticks from the shop's data. The app cannot see
// the theme, so the app embed counts as on once it has shown it works: a
// visit it reported through the app proxy, or an order it credited by link.

// Six existence checks in one statement (the dashboard's document and data
// read them on every load; as six Prisma queries they were most of its loader).
function setupFactsPlan(shopId: string) {
  const exists = (table: string, condition: string) =>
    mapPlan(countRows(`SELECT 1 FROM "${table}" WHERE "shopId" = ? AND ${condition} LIMIT 1`, [shopId]), (n) => n > 0);
  return allPlans([
    exists("Click", `"source" = 'proxy'`),
    exists("Order", `"attributionSource" = 'link'`),
    exists("Campaign", "1 = 1"),
    exists("PortalPage", `"publishedAt" IS NOT NULL`),
    exists("Affiliate", `"status" = 'approved'`),
    exists("Order", `"affiliateId" IS NOT NULL`),
  ]);
}

export async function loadSetupGuide(db: ShopDb, settingsText: string): Promise<SetupGuide & { dismissed: boolean }> {
  const settings = shopSettingsObject(settingsText);
  const saved = settings.setupGuide as { dismissedAt?: string } | undefined;
  const [embedClick, linkOrder, campaign, portal, affiliate, sale] = await runPlan(db, setupFactsPlan(db.$shopId));
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
