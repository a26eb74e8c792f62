// Where a referral link sends the visitor: always the shop's own storefront.
// Pure, so the open-redirect rules are table-tested.

export const CLICK_ID_PARAM = "_aff_click";
const MAX_PATH = 2048;

/**
 * The landing path asked for with `?to=`, when it is safe: a relative path
 * starting with a single "/" (no "//" anywhere, no scheme, no backslash, no
 * whitespace or control characters). Anything else lands on "/".
 */
export function safeLandingPath(to: string | null | undefined): string {
  if (!to || to.length > MAX_PATH) return "/";
  if (to[0] !== "/") return "/";
  if (to.includes("//") || to.includes("\\")) return "/";
  // Browsers drop tabs and newlines inside URLs ("/\t/evil.com" is "//evil.com").
  if (/[\s\u0000-\u001f\u007f]/.test(to)) return "/";
  return to;
}

/** The storefront host of a shop: its primary URL's host, else its myshopify domain. */
export function shopHost(shop: { domain: string; url: string }): string {
  try {
    const url = new URL(shop.url);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.hostname && !url.username && !url.password)
      return url.host;
  } catch {
    // fall through
  }
  return shop.domain;
}

/** A permanent shop domain as Shopify names it: {name}.myshopify.com. */
export function isMyshopifyDomain(value: string | null | undefined): value is string {
  return typeof value === "string" && value.length <= 255 && /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i.test(value);
}

function decodeKey(part: string): string {
  const key = part.split("=", 1)[0]!;
  try {
    return decodeURIComponent(key.replace(/\+/g, " "));
  } catch {
    return key;
  }
}

/**
 * https://{host}{path}?...&{param}={code}&_aff_click={clickId}. The path's own
 * query and fragment are kept as written (minus any earlier referral or click
 * parameter, so ours is the only one); clickId null leaves the click
 * parameter out. With a discount code (Settings > Promote link, "apply the
 * affiliate's discount"), that same address becomes the `redirect` of
 * Shopify's shareable discount path:
 * https://{host}/discount/{CODE}?redirect={path?...&{param}={code}&_aff_click={clickId}},
 * both URL-encoded; Shopify stores the code for the checkout and sends the
 * visitor on to the path. A null or empty discount code is the plain link.
 */
export function buildRedirectUrl(
  host: string,
  landingPath: string,
  param: string,
  code: string,
  clickId: string | null,
  discountCode: string | null = null,
): string {
  const t = redirectTemplate(host, landingPath, param, code, discountCode);
  return clickId ? t.before + encodeURIComponent(clickId) + t.after : t.withoutClick;
}

/**
 * A redirect URL in two halves around the click id, so a hot path only
 * concatenates. Click ids are URL-safe (letters, digits, "-" and "_"), so they
 * read the same inside the encoded `redirect` of a discount link.
 */
export interface RedirectTemplate {
  before: string;
  after: string;
  withoutClick: string;
}

export function redirectTemplate(
  host: string,
  landingPath: string,
  param: string,
  code: string,
  discountCode: string | null = null,
): RedirectTemplate {
  const path = safeLandingPath(landingPath);
  const hashAt = path.indexOf("#");
  const beforeHash = hashAt === -1 ? path : path.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : path.slice(hashAt);
  const queryAt = beforeHash.indexOf("?");
  const pathname = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const kept =
    queryAt === -1
      ? []
      : beforeHash
          .slice(queryAt + 1)
          .split("&")
          .filter((part) => part !== "" && decodeKey(part) !== param && decodeKey(part) !== CLICK_ID_PARAM);
  kept.push(`${encodeURIComponent(param)}=${encodeURIComponent(code)}`);
  const local = `${pathname}?${kept.join("&")}`;
  if (discountCode) {
    const base = `https://${host}/discount/${encodeURIComponent(discountCode)}?redirect=`;
    return {
      before: base + encodeURIComponent(`${local}&${CLICK_ID_PARAM}=`),
      after: encodeURIComponent(hash),
      withoutClick: base + encodeURIComponent(local + hash),
    };
  }
  const base = `https://${host}${local}`;
  return { before: `${base}&${CLICK_ID_PARAM}=`, after: hash, withoutClick: base + hash };
}

/** The shop's home page, for links that credit nobody. */
export function shopHomeUrl(host: string): string {
  return `https://${host}/`;
}
