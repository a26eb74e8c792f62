import { redirect } from "@remix-run/node";
import { getConfig } from "../../config.server";
import { refusalResponse } from "../../lib/refusal.server";
import { shopifyLib } from "../../shopify.server";

// The paths under /auth that shopify-app-remix's authenticate.admin answers
// itself (docs/decisions/003), checked before the library sees them: left to
// it, a bad query made it throw or build an invalid header, and every one of
// those was a 500.
//
// - /auth/login is the library's login path: it sends a document request
//   without a valid shop and host there, and answers that path itself only
//   with a 500 that asks the developer for a login page. This app's way in
//   is the Shopify admin (or /login standalone): with a shop, the login path
//   starts Shopify's authorization; without one it says so (400).
// - /auth/session-token (the bounce page) puts the `shop` parameter into a
//   header as it comes: it must be a shop domain.
// - /auth/exit-iframe opens `exitIframe` in the top window: only the app,
//   a shop's admin and Shopify's admin are destinations (an https URL, as the
//   library requires).

const LOGIN_PATH = "/auth/login";
const BOUNCE_PATH = "/auth/session-token";
const EXIT_IFRAME_PATH = "/auth/exit-iframe";

function isShopifyDestination(target: URL, appOrigin: string): boolean {
  if (target.protocol !== "https:" || /[/\\][/\\]/.test(target.pathname)) return false;
  if (target.origin === appOrigin) return true;
  return target.hostname === "admin.shopify.com" || /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i.test(target.hostname);
}

/** A response for a bad request to one of the library's /auth paths, or null to go on. */
export async function checkShopifyAuthPath(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  const shopParam = url.searchParams.get("shop");
  const shop = shopParam === null ? null : shopifyLib().utils.sanitizeShop(shopParam);

  if (url.pathname === LOGIN_PATH) {
    if (shop) return redirect(`/api/auth/authorize?shop=${encodeURIComponent(shop)}`);
    return refusalResponse(request, { kind: "openFromAdmin" });
  }
  if (url.pathname === BOUNCE_PATH || url.pathname === EXIT_IFRAME_PATH) {
    if (shopParam !== null && !shop) return refusalResponse(request, { kind: "badShop" });
  }
  if (url.pathname === EXIT_IFRAME_PATH) {
    const appUrl = getConfig().appUrl;
    let target: URL | null = null;
    try {
      const raw = url.searchParams.get("exitIframe");
      // The library refuses whitespace and protocol-relative tricks too.
      if (raw && !/\s|\/\/\/|^[/\\]{2}/.test(raw)) target = new URL(raw, appUrl);
    } catch {
      target = null;
    }
    if (!target || !isShopifyDestination(target, new URL(appUrl).origin))
      return refusalResponse(request, { kind: "badRedirect" });
  }
  return null;
}
