import { getDb } from "../../db.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { scheduleDailyMail } from "../notifications/scheduled-mail.server";
import { enqueueCatalogueSync } from "../portal/catalogue-sync.server";
import { enqueueWebPixelSync } from "./web-pixel.server";

/**
 * The shop row for a Shopify domain, created on first sight (a fresh
 * install). A new install has no pricing plan yet and must pick one, so
 * needSelectPlan starts true. A re-install clears uninstalledAt (and the
 * pixel Shopify removed with the uninstall). Either way the product
 * catalogue is then read from the Admin API by a job, the web pixel created
 * by another, and the shop's daily e-mails scheduled, in the same transaction.
 */
export async function findOrInstallShop(domain: string) {
  const db = getDb();
  const existing = await db.shop.findUnique({ where: { domain } });
  if (existing && !existing.uninstalledAt) return existing;
  if (existing) {
    const reinstalled = await db.$transaction(async (tx) => {
      const shop = await tx.shop.update({
        where: { id: existing.id },
        data: { uninstalledAt: null, installedAt: new Date(), webPixelId: null, webPixelUrl: null },
      });
      await enqueueCatalogueSync(tx, domain);
      await enqueueWebPixelSync(tx, shop.id);
      await scheduleDailyMail(tx, shop.id, shop.timezone);
      return shop;
    });
    notifyJobsEnqueued();
    return reinstalled;
  }
  try {
    const created = await db.$transaction(async (tx) => {
      const shop = await tx.shop.create({
        data: {
          domain,
          name: domain.replace(/\.myshopify\.com$/, ""),
          url: `https://${domain}`,
          adminEmail: "",
          needSelectPlan: true,
        },
      });
      await enqueueCatalogueSync(tx, domain);
      await enqueueWebPixelSync(tx, shop.id);
      // The daily e-mails (payout reminders, digest) schedule themselves from here on.
      await scheduleDailyMail(tx, shop.id, shop.timezone);
      return shop;
    });
    notifyJobsEnqueued();
    return created;
  } catch (error) {
    // The admin's first launch sends several requests at once (the page's
    // loaders, App Bridge's fetches); when another one created the row first,
    // the unique domain refuses this insert and that row is the answer.
    if (!isUniqueViolation(error)) throw error;
    return db.shop.findUniqueOrThrow({ where: { domain } });
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

export interface ShopDetails {
  name?: string;
  email?: string;
  url?: string;
  planName?: string;
  currency?: string;
  moneyFormat?: string;
  timezone?: string;
}

export async function saveShopDetails(shopId: string, details: ShopDetails) {
  return getDb().shop.update({
    where: { id: shopId },
    data: {
      ...(details.name ? { name: details.name } : {}),
      ...(details.email ? { adminEmail: details.email } : {}),
      ...(details.url ? { url: details.url } : {}),
      ...(details.planName ? { shopifyPlan: details.planName } : {}),
      ...(details.currency ? { currency: details.currency } : {}),
      ...(details.moneyFormat ? { moneyFormat: details.moneyFormat } : {}),
      ...(details.timezone ? { timezone: details.timezone } : {}),
    },
  });
}
