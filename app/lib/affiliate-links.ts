import { safeLandingPath } from "../models/tracking/redirect-url";

// The links an affiliate hands out. The short link on the app's domain
// records a click before it redirects to the store (app/server/click-handler.ts).
// It names the shop (/r/{shop-handle}/{CODE}): codes are unique per shop only,
// so a link without its shop could be broken by another shop using the code.

/** The short link's path: /r/{shop-handle}/{CODE}. */
export function shortLinkPath(code: string, shopDomain: string): string {
  return `/r/${encodeURIComponent(shopHandle(shopDomain))}/${encodeURIComponent(code)}`;
}

export function affiliateLink(appUrl: string, code: string, shopDomain: string, path = "/"): string {
  const url = new URL(`${appUrl.replace(/\/$/, "")}${shortLinkPath(code, shopDomain)}`);
  const to = safeLandingPath(path);
  if (to !== "/") url.searchParams.set("to", to);
  return url.toString();
}

/**
 * The store path a link builder entry points at: a path ("/products/x") or a
 * full URL on the shop's own storefront host or myshopify domain. null when
 * it is anywhere else.
 */
export function storePathOf(input: string, shopHosts: string[]): string | null {
  const value = input.trim();
  if (!value) return null;
  if (value.startsWith("/")) {
    const path = safeLandingPath(value);
    return path === "/" && value !== "/" ? null : path;
  }
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return null;
  }
  if (!shopHosts.map((h) => h.toLowerCase()).includes(url.host.toLowerCase())) return null;
  const path = safeLandingPath(url.pathname + url.search + url.hash);
  return path;
}

// Where affiliates find the shop's program: the portal pages served on the
// app's domain (the affiliate portal's routes). One place to change if the
// portal moves (a custom domain, the Shopify app proxy).

/** The shop's handle in portal URLs: its myshopify.com name. */
export function shopHandle(domain: string): string {
  return domain.replace(/\.myshopify\.com$/i, "").toLowerCase();
}

export interface AffiliateLinks {
  landing: string;
  signup: string;
  login: string;
}

export function affiliateLinks(appUrl: string, domain: string): AffiliateLinks {
  const base = `${appUrl.replace(/\/+$/, "")}/portal/${encodeURIComponent(shopHandle(domain))}`;
  return { landing: `${base}/`, signup: `${base}/signup`, login: `${base}/login` };
}
