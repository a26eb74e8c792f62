import { getDb } from "../../db.server";

/**
 * The shop row for a Shopify domain, created on first sight (a fresh
 * install). A new install has no pricing plan yet and must pick one, so
 * needSelectPlan starts true. A re-install clears uninstalledAt.
 */
export async function findOrInstallShop(domain: string) {
  const db = getDb();
  const existing = await db.shop.findUnique({ where: { domain } });
  if (existing && !existing.uninstalledAt) return existing;
  if (existing) {
    return db.shop.update({ where: { id: existing.id }, data: { uninstalledAt: null, installedAt: new Date() } });
  }
  return db.shop.upsert({
    where: { domain },
    update: {},
    create: {
      domain,
      name: domain.replace(/\.myshopify\.com$/, ""),
      url: `https://${domain}`,
      adminEmail: "",
      needSelectPlan: true,
    },
  });
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
