// The storefront tracking script's decisions, as pure functions.
//
// extensions/affiliate-tracking/assets/affiliate-tracking.js is a
// hand-written plain-JavaScript copy of this file (a theme asset is served
// as is, with no build step); tests/unit/storefront-asset.test.ts runs both
// on the same cases, so the copy cannot drift. Change both together.
//
// What the script keeps, in one first-party cookie for the merchant's
// cookie window: "{CODE}.{clickId}" (the click id may be empty).
//
// Per page view:
// - A referral code in the URL (?ref=CODE, the shop's parameter, or another
//   app's ?sca_ref= / ?rfsn= kept for imported affiliates) with a click
//   id (&_aff_click=..., the visit came through /r/{code}): remember both.
// - A code without a click id (a typed or shared ?ref= link): remember the
//   code and ask the app proxy to record a click, unless this same code is
//   already remembered with a click id (a reload, another page of the same
//   visit); the answered click id is remembered with it.
// - No code in the URL: keep what is remembered (newest referral wins).
// - Whenever a referral is remembered, the cart carries it as attributes
//   _affiliate_ref and _affiliate_click, written once per value and cart.
import { LEGACY_LINK_PARAMS, legacyReferralCode, parseReferralCode } from "./referral-code";
export const CLICK_PARAM = "_aff_click";
export const PROXY_PATH = "apps/affiliate/click";
export const DEFAULT_PARAM = "ref";
export const DEFAULT_DAYS = 30;

export interface Referral {
  code: string;
  clickId: string | null;
}

export interface VisitDecision {
  /** What to remember after this page view (null: nothing). */
  referral: Referral | null;
  /** Write the referral cookie (with a fresh window). */
  writeCookie: boolean;
  /** Ask the app proxy for a click id. */
  callProxy: boolean;
}

const CLICK_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function isClickId(value: unknown): value is string {
  return typeof value === "string" && CLICK_ID.test(value);
}

/** The block setting for the parameter name; anything odd falls back to "ref". */
export function paramName(raw: unknown): string {
  return typeof raw === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(raw.trim()) ? raw.trim() : DEFAULT_PARAM;
}

/** The block setting for the cookie window: whole days, 1..365, else 30. */
export function cookieDays(raw: unknown): number {
  const days = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  return Number.isInteger(days) && days >= 1 && days <= 365 ? days : DEFAULT_DAYS;
}

export function encodeReferral(referral: Referral): string {
  return `${referral.code}.${referral.clickId ?? ""}`;
}

export function decodeReferral(raw: string | null | undefined): Referral | null {
  if (!raw) return null;
  const dot = raw.indexOf(".");
  if (dot === -1) return null;
  const code = parseReferralCode(raw.slice(0, dot));
  const clickId = raw.slice(dot + 1);
  if (!code || code !== raw.slice(0, dot)) return null;
  if (clickId !== "" && !isClickId(clickId)) return null;
  return { code, clickId: clickId || null };
}

/**
 * The referral carried by the page URL (its query string), if any: the
 * shop's parameter first, then another app's (?sca_ref=, ?rfsn=), whose
 * value the app knows as an imported affiliate's alias (ADR 048).
 */
export function readLanding(search: string, param: string): Referral | null {
  const params = new URLSearchParams(search);
  let code = parseReferralCode(params.get(param));
  for (const other of LEGACY_LINK_PARAMS) if (!code && other !== param) code = legacyReferralCode(params.get(other));
  if (!code) return null;
  const clickId = params.get(CLICK_PARAM);
  return { code, clickId: isClickId(clickId) ? clickId : null };
}

export function decideVisit(landing: Referral | null, stored: Referral | null): VisitDecision {
  if (!landing) return { referral: stored, writeCookie: false, callProxy: false };
  if (landing.clickId) {
    const same = stored !== null && stored.code === landing.code && stored.clickId === landing.clickId;
    return { referral: landing, writeCookie: !same, callProxy: false };
  }
  if (stored && stored.code === landing.code && stored.clickId) {
    return { referral: stored, writeCookie: false, callProxy: false };
  }
  return { referral: { code: landing.code, clickId: null }, writeCookie: true, callProxy: true };
}

/** GET {root}apps/affiliate/click?code=&landing=&referrer= (same origin, through the app proxy). */
export function proxyUrl(root: string, code: string, landing: string, referrer: string): string {
  const base = root.endsWith("/") ? root : `${root}/`;
  const query = [`code=${encodeURIComponent(code)}`, `landing=${encodeURIComponent(landing)}`];
  if (referrer) query.push(`referrer=${encodeURIComponent(referrer)}`);
  return `${base}${PROXY_PATH}?${query.join("&")}`;
}

export function cartAttributes(referral: Referral): Record<string, string> {
  return { _affiliate_ref: referral.code, _affiliate_click: referral.clickId ?? "" };
}

/** What was last written to which cart; a different value or a new cart means write again. */
export function cartMarker(referral: Referral, cartToken: string | null | undefined): string {
  return `${encodeReferral(referral)}|${cartToken ?? ""}`;
}

export function shouldUpdateCart(
  referral: Referral | null,
  cartToken: string | null | undefined,
  lastMarker: string | null | undefined,
): boolean {
  return referral !== null && cartMarker(referral, cartToken) !== (lastMarker ?? "");
}

/** A first-party cookie; maxAgeSeconds null makes a session cookie. */
export function cookieString(name: string, value: string, maxAgeSeconds: number | null, secure: boolean): string {
  return `${name}=${value}; path=/${maxAgeSeconds === null ? "" : `; max-age=${maxAgeSeconds}`}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Shopify's Customer Privacy API (window.Shopify.customerPrivacy), as far as the embed uses it. */
export interface CustomerPrivacy {
  marketingAllowed?: () => boolean;
}

/**
 * Whether this visit may be tracked. A referral cookie is marketing: with
 * Shopify's Customer Privacy API on the page, the visitor's decision (or
 * their region's default) rules; a storefront without it restricts nothing.
 */
export function trackingAllowed(privacy: CustomerPrivacy | null | undefined): boolean {
  if (!privacy || typeof privacy.marketingAllowed !== "function") return true;
  return privacy.marketingAllowed() === true;
}
