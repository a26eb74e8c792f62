import { json } from "@remix-run/node";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { shopify } from "../../shopify.server";
import { isShopHandle, pagesBase, PORTAL_SHOP_HEADER, PORTAL_WAY_HEADER, type PortalWay } from "../../lib/portal-ways";

// Which shop's portal a request is for, and how it came in (lib/portal-ways.ts).

const shopSelect = {
  id: true,
  domain: true,
  name: true,
  url: true,
  currency: true,
  moneyFormat: true,
  language: true,
  referralParam: true,
  portalDomain: true,
  adminEmail: true,
  timezone: true,
  // Settings that have no column (branding, promote link).
  settings: true,
} as const;

export type PortalShop = {
  id: string;
  domain: string;
  name: string;
  url: string;
  currency: string;
  moneyFormat: string;
  language: string;
  referralParam: string;
  portalDomain: string | null;
  adminEmail: string;
  // IANA zone: the account dashboard's days are the shop's days.
  timezone: string;
  settings: string;
};

export interface PortalContext {
  shop: PortalShop;
  way: PortalWay;
  handle: string;
  /** Prefix of the portal pages on this way in ("" on a custom domain). */
  base: string;
  /** Origin of the account area for links from this page ("" = same origin). */
  accountOrigin: string;
}

export function portalNotFound(): Response {
  return json({ error: { code: "not_found", message: "Page not found" } }, { status: 404 });
}

export function requestWay(request: Request): PortalWay {
  const way = request.headers.get(PORTAL_WAY_HEADER);
  return way === "proxy" || way === "custom" ? way : "app";
}

/** The account area's origin for a shop when the page itself cannot hold a session. */
export function accountOriginFor(shop: { portalDomain: string | null }): string {
  const config = getConfig();
  return shop.portalDomain ? `${config.isHttps ? "https" : "http"}://${shop.portalDomain}` : config.appUrl;
}

/**
 * The absolute base of a shop's portal pages for links that leave the page
 * (a reset link in an e-mail): the shop's verified custom domain when the
 * visitor came through it or through the app proxy, else the app's own
 * URL. Never built from the request's Host header, which the client
 * chooses.
 */
export function portalPagesUrl(ctx: Pick<PortalContext, "shop" | "way" | "handle">): string {
  if (ctx.shop.portalDomain && ctx.way !== "app") return accountOriginFor(ctx.shop);
  return `${getConfig().appUrl}/portal/${ctx.handle}`;
}

/** Resolves the shop of a portal page; throws 404 (or 400 for a bad proxy signature). */
export async function resolvePortal(request: Request, handleParam: string | undefined): Promise<PortalContext> {
  const way = requestWay(request);
  const url = new URL(request.url);
  let domain: string | null = null;
  let portalDomain: string | null = null;
  if (way === "proxy") {
    // Shopify signs every proxied request; the shop is the signed parameter.
    await shopify().authenticate.public.appProxy(request);
    domain = url.searchParams.get("shop");
  } else if (way === "custom") {
    portalDomain = request.headers.get(PORTAL_SHOP_HEADER);
  } else if (isShopHandle(handleParam)) {
    domain = `${handleParam}.myshopify.com`;
  }
  const where = portalDomain ? { portalDomain } : domain ? { domain: domain.toLowerCase() } : null;
  const shop = where
    ? await getDb().shop.findFirst({ where: { ...where, uninstalledAt: null }, select: shopSelect })
    : null;
  if (!shop) throw portalNotFound();
  const handle = shop.domain.replace(/\.myshopify\.com$/, "");
  return {
    shop,
    way,
    handle,
    base: pagesBase(way, handle, url.searchParams.get("path_prefix")),
    accountOrigin: way === "proxy" ? accountOriginFor(shop) : "",
  };
}

export { shopSelect as portalShopSelect };
