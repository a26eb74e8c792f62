import { REFUSED_PARAM } from "../../lib/auth-steps";
import { STATE_COOKIE_NAME } from "@shopify/shopify-api";
import { writeOnRead } from "../../db/db-context";
import { AppError } from "../../lib/errors";
import { shopify, shopifyLib } from "../../shopify.server";
import { fromAccessToken, fromRemixAdmin, type AdminClient } from "../shopify/admin-client.server";
import { SHOP_DETAILS } from "../shopify/admin-operations";
import { findOrInstallShop, saveShopDetails } from "./install-shop.server";
import { toShopRecord, type ShopRecord } from "./shop-record";

// Spec section 7: the OAuth authorize link redirects back to the product's
// /auth page, and that page sends the code on to GET /api/auth.
export const OAUTH_CALLBACK_PATH = "/auth";

/** 302 to Shopify's authorization URL, with the signed state cookie set. */
export async function beginOAuth(request: Request): Promise<Response> {
  const lib = shopifyLib();
  const shop = lib.utils.sanitizeShop(new URL(request.url).searchParams.get("shop") ?? "");
  if (!shop) throw new AppError("bad_request", "The shop parameter must be a myshopify.com domain.");
  const response: Response = await lib.auth.begin({
    shop,
    callbackPath: OAUTH_CALLBACK_PATH,
    isOnline: false,
    rawRequest: request,
  });
  // The library answers an empty 410 to a user agent that calls itself a bot
  // (headless browsers do), which a browser shows as its own error page: back
  // to the /auth screen, which says what happened.
  if (response.status === 410) {
    const back = new URLSearchParams({ shop, [REFUSED_PARAM]: "1" });
    return new Response(null, { status: 302, headers: { Location: `/auth?${back}` } });
  }
  return new Response(null, { status: response.status, headers: stateCookiesOnExchangePath(response.headers) });
}

// The code is exchanged by GET /api/auth, not on the callback page (/auth):
// Shopify's library scopes the state cookie to the callback path when it sets
// it, and to / when it clears it. Both must name /api/auth instead, or the
// browser would not send the cookie there, nor clear it once used.
const STATE_COOKIE_PATH = "/api/auth";

function stateCookiesOnExchangePath(source: Headers): Headers {
  const headers = new Headers();
  source.forEach((value, key) => {
    if (key.toLowerCase() !== "set-cookie") headers.append(key, value);
  });
  for (const cookie of source.getSetCookie()) {
    const isState = cookie.startsWith(`${STATE_COOKIE_NAME}=`) || cookie.startsWith(`${STATE_COOKIE_NAME}.sig=`);
    headers.append("Set-Cookie", isState ? cookie.replace(/;\s*path=[^;]*/i, `; path=${STATE_COOKIE_PATH}`) : cookie);
  }
  return headers;
}

/** Exchanges the code of an OAuth callback, stores the session and the shop. */
export function completeOAuth(request: Request): Promise<{ shop: ShopRecord; headers: Headers }> {
  // Shopify's OAuth callback is a GET that installs the shop (db-context.ts).
  return writeOnRead("shopify install", () => completeOAuthInstall(request));
}

async function completeOAuthInstall(request: Request): Promise<{ shop: ShopRecord; headers: Headers }> {
  let result;
  try {
    result = await shopifyLib().auth.callback<Headers>({ rawRequest: request });
  } catch {
    throw new AppError("unauthenticated", "Shopify authorization failed. Start the installation again.");
  }
  const { session } = result;
  await shopify().sessionStorage.storeSession(session);
  const shop = await findOrInstallShop(session.shop);
  const detailed = await fetchShopDetails(session.shop, session.accessToken ?? "").then(
    (details) => (details ? saveShopDetails(shop.id, details) : shop),
    () => shop,
  );
  return { shop: toShopRecord(detailed), headers: stateCookiesOnExchangePath(result.headers) };
}

/** Embedded launch: the session token identifies the shop (spec: store the shop record). */
export function embeddedShop(request: Request): Promise<ShopRecord> {
  // A first launch installs the shop and stores its details (db-context.ts).
  return writeOnRead("shopify install", () => embeddedShopInstall(request));
}

async function embeddedShopInstall(request: Request): Promise<ShopRecord> {
  const { session, admin } = await shopify().authenticate.admin(request);
  const shop = await findOrInstallShop(session.shop);
  if (shop.adminEmail) return toShopRecord(shop);
  const details = await queryShopDetails(fromRemixAdmin(session.shop, admin)).catch(() => null);
  return toShopRecord(details ? await saveShopDetails(shop.id, details) : shop);
}

async function queryShopDetails(client: AdminClient) {
  const { data } = await client.run(SHOP_DETAILS, {});
  const s = data?.shop;
  if (!s) return null;
  return {
    name: s.name,
    email: s.email,
    url: s.primaryDomain?.url,
    planName: s.plan?.publicDisplayName,
    currency: s.currencyCode,
    moneyFormat: s.currencyFormats?.moneyFormat,
    timezone: s.ianaTimezone,
  };
}

async function fetchShopDetails(shop: string, accessToken: string) {
  return queryShopDetails(fromAccessToken(shop, accessToken));
}
