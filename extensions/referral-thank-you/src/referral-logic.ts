// Everything the refer-a-friend block decides, without Shopify's runtime:
// the request to the app, how its answer is read, when to ask again, and
// what the block says. The Preact components (ReferralBlock.tsx) only wire
// this to Shopify's API; tests/unit/referral-thank-you.test.ts runs it under
// the app's vitest.

/** The app's endpoint (app/routes/api.checkout.referral-link.tsx). */
export const LINK_PATH = "/api/checkout/referral-link";

/** How often the block asks while the order is still on its way to the app. */
export const MAX_ATTEMPTS = 6;
const MIN_RETRY_MS = 1000;
const MAX_RETRY_MS = 10_000;

export type FriendOffer =
  | { type: "percentage"; value: number; currency: string }
  | { type: "fixed_amount"; value: number; currency: string }
  | { type: "free_shipping"; value: number; currency: string };

export type LinkAnswer =
  | { status: "ready"; shareUrl: string; friendCode: string | null; firstName: string; friendOffer: FriendOffer }
  | { status: "pending"; retryAfterMs: number }
  | { status: "off" };

/** What the buyer's page knows; any of it may be missing. */
export interface BuyerFacts {
  orderId?: string | null;
  email?: string | null;
  firstName?: string | null;
}

const ORDER_GID = /^gid:\/\/shopify\/Order\/\d{1,20}$/;

/** The app's base URL without a trailing slash; null unless it is https (or http on localhost, for development). */
export function normalizeAppUrl(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || !raw.trim()) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The fetch the block sends, or null when there is nothing to ask (no order
 * yet, no app URL). The body mirrors the app's checkoutLinkRequestSchema
 * (app/models/referrals/checkout-link.server.ts): the order id, the e-mail
 * and first name when known, nothing else.
 */
export function buildLinkRequest(
  appUrl: string | null | undefined,
  sessionToken: string,
  facts: BuyerFacts,
): { url: string; init: { method: "POST"; headers: Record<string, string>; body: string } } | null {
  const base = normalizeAppUrl(appUrl);
  const orderId = facts.orderId?.trim();
  if (!base || !orderId || !ORDER_GID.test(orderId) || !sessionToken) return null;
  const body: Record<string, string> = { orderId };
  const email = facts.email?.trim();
  if (email && email.length <= 254 && email.includes("@")) body.email = email;
  const firstName = facts.firstName?.trim().slice(0, 60);
  if (firstName) body.firstName = firstName;
  return {
    url: base + LINK_PATH,
    init: {
      method: "POST",
      headers: { Authorization: `Bearer ${sessionToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === "object" && !Array.isArray(v);
const OFFER_TYPES = new Set(["percentage", "fixed_amount", "free_shipping"]);

/**
 * The app's answer as the block reads it. Anything but a well-formed 200 (a
 * refused token, a 403, a 5xx, a page from a proxy) shows nothing: the
 * thank-you page is the shop's, not the place for our errors.
 */
export function readLinkAnswer(status: number, body: unknown): LinkAnswer {
  if (status !== 200 || !isObject(body)) return { status: "off" };
  if (body.status === "pending") {
    const wait = typeof body.retryAfterMs === "number" && Number.isFinite(body.retryAfterMs) ? body.retryAfterMs : 0;
    return { status: "pending", retryAfterMs: Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, wait)) };
  }
  if (body.status !== "ready") return { status: "off" };
  const offer = body.friendOffer;
  if (
    typeof body.shareUrl !== "string" ||
    !/^https?:\/\//.test(body.shareUrl) ||
    !isObject(offer) ||
    !OFFER_TYPES.has(String(offer.type)) ||
    typeof offer.value !== "number" ||
    typeof offer.currency !== "string"
  )
    return { status: "off" };
  return {
    status: "ready",
    shareUrl: body.shareUrl,
    friendCode: typeof body.friendCode === "string" && body.friendCode ? body.friendCode : null,
    firstName: typeof body.firstName === "string" ? body.firstName : "",
    friendOffer: offer as FriendOffer,
  };
}

export type Step =
  | { kind: "show"; answer: Extract<LinkAnswer, { status: "ready" }> }
  | { kind: "retry"; afterMs: number }
  | { kind: "hide" };

/** After the `attempt`-th answer (1-based): show it, ask again later, or give up quietly. */
export function nextStep(answer: LinkAnswer, attempt: number): Step {
  if (answer.status === "ready") return { kind: "show", answer };
  if (answer.status === "pending" && attempt < MAX_ATTEMPTS) return { kind: "retry", afterMs: answer.retryAfterMs };
  return { kind: "hide" };
}

/** Digits after the decimal point of a currency (JPY 0, EUR 2, BHD 3). */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export interface Formatters {
  formatNumber: (n: number, options?: Intl.NumberFormatOptions) => string;
  formatCurrency: (n: number, options?: Intl.NumberFormatOptions) => string;
}

/**
 * The friend's reward as a translation key of locales/*.json and its values:
 * percentages arrive in basis points (1000 = 10 %), amounts in minor units.
 */
export function offerMessage(offer: FriendOffer, format: Formatters): { key: string; values: Record<string, string> } {
  if (offer.type === "free_shipping") return { key: "offer.free_shipping", values: {} };
  if (offer.type === "percentage")
    return {
      key: "offer.percentage",
      values: { discount: format.formatNumber(offer.value / 10_000, { style: "percent", maximumFractionDigits: 2 }) },
    };
  const major = offer.value / 10 ** currencyDigits(offer.currency);
  return {
    key: "offer.fixed_amount",
    values: { discount: format.formatCurrency(major, { style: "currency", currency: offer.currency }) },
  };
}

/** What the copy button puts on the clipboard: the share link itself, so it pastes anywhere. */
export const copyText = (answer: Extract<LinkAnswer, { status: "ready" }>) => answer.shareUrl;

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** Every text of the block, translated: the view only places them. */
export function blockTexts(answer: Extract<LinkAnswer, { status: "ready" }>, t: Translate, format: Formatters) {
  const offer = offerMessage(answer.friendOffer, format);
  const name = answer.firstName.trim();
  return {
    heading: name ? t("heading.named", { name }) : t("heading.plain"),
    offer: t(offer.key, offer.values),
    linkLabel: t("link.label"),
    copy: t("link.copy"),
    copied: t("link.copied"),
    code: answer.friendCode ? t("code", { code: answer.friendCode }) : null,
  };
}
