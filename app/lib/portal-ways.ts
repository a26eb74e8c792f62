// The three ways an affiliate reaches a shop's portal, and where its pages
// live on each (pure, shared by the server rewrite and the pages):
// - app:    the app's own domain, /portal/{shop-handle}/..., account at /account/...
// - custom: the merchant's own domain (Host header), pages at /, /signup, ...,
//           account at /account/...
// - proxy:  the shop's domain through Shopify's app proxy, pages at
//           /apps/affiliate/...; Shopify drops cookies there, so a login hands
//           over to the account area on the custom or app domain.

export type PortalWay = "app" | "custom" | "proxy";

/** Request headers the server sets (and always overwrites) for the pages. */
export const PORTAL_WAY_HEADER = "x-app-portal-way";
// For a custom domain: the host name, which the pages look up in Shop.portalDomain.
export const PORTAL_SHOP_HEADER = "x-app-portal-host";

export const PORTAL_PAGES = ["", "signup", "login", "forgot", "reset"] as const;

/** demo-store.myshopify.com -> demo-store */
export function shopHandle(domain: string): string {
  return domain.replace(/\.myshopify\.com$/i, "").toLowerCase();
}

export function isShopHandle(value: string | undefined): value is string {
  return typeof value === "string" && /^[a-z0-9][a-z0-9-]{0,62}$/.test(value);
}

/** A host name as typed in settings: lower-case letters, digits, dots and dashes. */
export function normalizeHostName(raw: string): string | null {
  const host = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "");
  if (host.length > 253 || !/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host))
    return null;
  if (host.endsWith(".myshopify.com")) return null;
  return host;
}

/** Where the app proxy's pages live on the shop's domain (Shopify signs path_prefix). */
export const DEFAULT_PROXY_PREFIX = "/apps/affiliate";

export function pagesBase(way: PortalWay, handle: string, proxyPrefix: string | null = null): string {
  if (way === "custom") return "";
  if (way === "proxy")
    return (proxyPrefix && /^\/apps\/[a-z0-9_-]+$/i.test(proxyPrefix) ? proxyPrefix : DEFAULT_PROXY_PREFIX).replace(
      /\/$/,
      "",
    );
  return `/portal/${handle}`;
}

/**
 * The server's rewrite of a request path for the proxy and custom-domain ways
 * in: the portal routes live at /portal/{handle}/... only. Returns null to
 * leave the request alone.
 */
export function rewritePortalPath(way: Exclude<PortalWay, "app">, handle: string, pathname: string): string | null {
  if (way === "proxy") {
    if (pathname !== "/proxy" && !pathname.startsWith("/proxy/")) return null;
    const rest = pathname.slice("/proxy".length);
    // The app's own proxy endpoints (the click recorder, refer-a-friend) keep their paths.
    return rest === "/click" || rest.startsWith("/referrals/") ? null : `/portal/${handle}${rest || "/"}`;
  }
  // Custom domain: the account area, app assets and the tracking link keep
  // their paths; the portal's own pages answer at the root.
  if (pathname === "/" || pathname === "") return `/portal/${handle}/`;
  const first = pathname.split("/")[1] ?? "";
  if ((PORTAL_PAGES as readonly string[]).includes(first)) return `/portal/${handle}${pathname}`;
  return null;
}
