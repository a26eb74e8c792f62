import { getDb } from "../../db.server";
import { isMyshopifyDomain } from "../tracking/redirect-url";
import { bodyShop } from "./webhook-body";

// The webhook door's check that a verified body belongs to the shop in
// X-Shopify-Shop-Domain (Shopify signs the body, not the headers), and that
// shop/redact never erases a shop that is installed. See webhook-body.ts.

export type ShopVerdict =
  | { accept: true }
  | { accept: false; status: 400; message: string }
  /** Answered 200 so Shopify stops, but nothing is stored. */
  | { accept: false; status: 200; ignored: string };

export interface ShopLookups {
  /** myshopify.com domains of installed shops whose storefront is on this host. */
  storefrontOwners(host: string): string[] | Promise<string[]>;
  isInstalled(domain: string): Promise<boolean>;
}

const ACCEPT: ShopVerdict = { accept: true };
const refuse = (message: string): ShopVerdict => ({ accept: false, status: 400, message });

/** Database lookups; storefront owners cached for a few seconds (a burst of one shop's orders costs one query). */
export function dbShopLookups(ttlMs = 10_000): ShopLookups {
  const cache = new Map<string, { expires: number; owners: string[] }>();
  return {
    storefrontOwners(host) {
      const hit = cache.get(host);
      if (hit && hit.expires > Date.now()) return hit.owners;
      return getDb()
        .shop.findMany({
          where: {
            uninstalledAt: null,
            url: { in: [`https://${host}`, `https://${host}/`, `http://${host}`, `http://${host}/`] },
          },
          select: { domain: true },
        })
        .then((rows) => {
          const owners = rows.map((r) => r.domain);
          if (cache.size >= 1000) cache.clear();
          cache.set(host, { expires: Date.now() + ttlMs, owners });
          return owners;
        });
    },
    async isInstalled(domain) {
      const shop = await getDb().shop.findUnique({ where: { domain }, select: { uninstalledAt: true } });
      return !!shop && shop.uninstalledAt === null;
    },
  };
}

/**
 * Whether a verified webhook may be stored. Cheap for the busy topics (an
 * order names its myshopify.com domain: a string compare; its storefront
 * domain: a cached lookup); the rare ones are parsed whole.
 */
export async function checkWebhookShop(
  lookups: ShopLookups,
  topic: string,
  headerDomain: string,
  text: string,
): Promise<ShopVerdict> {
  if (!isMyshopifyDomain(headerDomain)) return refuse("X-Shopify-Shop-Domain is not a shop's myshopify.com domain.");
  const named = bodyShop(topic, text);
  if (!named.ok) return refuse(named.message);
  if (named.domain && named.domain !== headerDomain)
    return refuse(`The body names the shop ${named.domain}, not ${headerDomain}.`);
  if (named.storefront) {
    // A storefront domain no installed shop here has proves nothing either way
    // (the shop may have changed its primary domain since): only another
    // shop's domain is refused.
    const owners = await lookups.storefrontOwners(named.storefront);
    if (owners.length && !owners.includes(headerDomain))
      return refuse(`The body names the shop ${owners[0]} (${named.storefront}), not ${headerDomain}.`);
  }
  if (topic === "shop/redact" && (await lookups.isInstalled(headerDomain))) {
    return {
      accept: false,
      status: 200,
      ignored: "The shop is installed; shop/redact comes 48 hours after an uninstall. Nothing was erased.",
    };
  }
  return ACCEPT;
}
