// The query parameters an embedded page must keep when the app sends the
// merchant to another of its pages (App Bridge reads host; shop and embedded
// tell the server it is inside the Shopify admin).
const KEPT = ["host", "shop", "embedded"] as const;

export function keptParams(url: URL, extra: Record<string, string> = {}): string {
  const keep = new URLSearchParams();
  for (const key of KEPT) {
    const value = url.searchParams.get(key);
    if (value) keep.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) keep.set(key, value);
  return keep.toString();
}

/**
 * The same page with one parameter changed, every other one kept: the plans
 * page's monthly/yearly switch must not lose `installing=1` (the plan still
 * has to be chosen, spec §2/§4) nor `upgrade` (why the merchant is here).
 */
export function withParam(search: string, key: string, value: string): string {
  const params = new URLSearchParams(search);
  params.set(key, value);
  return `?${params.toString()}`;
}

/**
 * Where a click in the Shopify admin's app menu (App Bridge's NavMenu) leads,
 * for Remix's client router: the link's path and query with the current
 * page's embedded parameters kept (the root loader and a later reload still
 * know they are inside the admin); null for a link that leaves the app.
 */
export function navMenuTarget(href: string, current: URL): string | null {
  const target = new URL(href, current);
  if (target.origin !== current.origin) return null;
  for (const key of KEPT) {
    const value = current.searchParams.get(key);
    if (value && !target.searchParams.has(key)) target.searchParams.set(key, value);
  }
  return target.pathname + target.search + target.hash;
}
