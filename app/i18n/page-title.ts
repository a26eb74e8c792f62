// The document's <title>: the screen's name (a translation key a route names
// in handle.title), then whose pages these are. Rendered by the root for every
// document, so route files only name a key, and a client-side navigation
// changes the title with the screen.

/**
 * A translation key ("Namespace:key"), with its values when the text has
 * placeholders; `brand: false` when the text already names the shop.
 */
export type TitleKey = string | ScreenTitle;

export interface ScreenTitle {
  key: string;
  values?: Record<string, string>;
  brand?: false;
}

/** What a route's handle.title may read: the matched route's params and loader data. */
export interface TitleArgs {
  params: Record<string, string | undefined>;
  data: unknown;
}

export type RouteTitle = TitleKey | ((args: TitleArgs) => TitleKey | null);

interface MatchLike {
  params: Record<string, string | undefined>;
  data: unknown;
  handle: unknown;
}

/** The deepest matched route that names a title, its key resolved. */
export function screenTitle(matches: readonly MatchLike[]): ScreenTitle | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const title = (match.handle as { title?: RouteTitle } | undefined)?.title;
    if (title === undefined) continue;
    const key = typeof title === "function" ? title({ params: match.params, data: match.data }) : title;
    if (key === null) continue;
    return typeof key === "string" ? { key } : key;
  }
  return null;
}

/** The namespace of a "Namespace:key" key (Global when it names none). */
export function titleNamespace(key: string): string {
  const at = key.indexOf(":");
  return at > 0 ? key.slice(0, at) : "Global";
}

/**
 * Whose pages these are: the shop's name on the affiliate side (affiliates
 * know the store, and a white-label portal must not show the app's name),
 * the app's name on the merchant's side.
 */
export function titleBrand(matches: readonly MatchLike[], productName: string): string | null {
  const affiliateSide = matches.some((m) => (m.handle as { portal?: boolean } | undefined)?.portal === true);
  if (!affiliateSide) return productName;
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]!.data as { shop?: { name?: unknown }; chrome?: { shopName?: unknown } } | null | undefined;
    const name = data?.chrome?.shopName ?? data?.shop?.name;
    if (typeof name === "string" && name) return name;
  }
  return null;
}

/** "Payouts · Affiliate & Referral"; the brand alone until the screen's text is there. */
export function documentTitle(screen: string | null, brand: string | null): string {
  return [screen, brand].filter((part): part is string => Boolean(part)).join(" · ");
}

/** A portal page's title whose text names the shop (the page's loader gives `chrome.shopName`). */
export function portalShopTitle(key: string): RouteTitle {
  return ({ data }) => {
    const shop = (data as { chrome?: { shopName?: string } } | undefined)?.chrome?.shopName;
    return shop ? { key, values: { shop }, brand: false } : null;
  };
}
