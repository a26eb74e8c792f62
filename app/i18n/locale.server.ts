import type { Params } from "@remix-run/react";
import { getDb } from "../db.server";
import { shopDb } from "../db/shop-db.server";
import { PORTAL_SHOP_HEADER } from "../lib/portal-ways";
import { sessionAffiliate } from "../models/affiliate-account/affiliate-session.server";
import { sessionUserWithShop } from "../models/auth/require-merchant.server";
import { requestWay } from "../models/portal/portal-context.server";
import { pageOverrides } from "../models/translations/overrides.server";
import { chooseAdminLanguage, chooseAffiliateLanguage } from "./choose-language";
import { DEFAULT_LANGUAGE_INFO, languageByTag, type LanguageInfo } from "./language-table";
import { pageLanguageDetector } from "./remix-i18next.server";
import { pseudoLocaleEnabled } from "./resources.server";
import type { Overrides } from "./overrides";

// The language of a document request, decided once in the root loader
// (through remix-i18next's detector, remix-i18next.server.ts):
// - the admin (/{role}/..., login pages): the shop's language (spec section
//   1), from the merchant's session or, for an embedded document, the shop
//   parameter; only the full set; default en;
// - the affiliate side (/portal/{handle}/..., /account/...): the language
//   picked on the page (?lang=), else the affiliate's saved choice, else the
//   shop's, else the browser's Accept-Language; any Account.* language.
// The shop's overrides (Settings > Translations) come along.

export interface PageLocale {
  code: string;
  tag: string;
  dir: "ltr" | "rtl";
  /** The shop's own texts for this language (none when no shop is known). */
  overrides: Overrides;
}

// The public marketplace is read by would-be affiliates, so it follows the
// affiliate side's language choice too.
function isAffiliateSide(pathname: string): boolean {
  return /^\/(portal|account|marketplace)(\/|$)/.test(pathname) || pathname.startsWith("/account_");
}

interface ShopLanguage {
  id: string;
  language: string;
  translationsVersion: number;
}

const shopLanguage = { id: true, language: true, translationsVersion: true } as const;

/** The shop a portal page belongs to, found the way the page itself finds it. */
async function portalShop(request: Request, url: URL, params: Params): Promise<ShopLanguage | null> {
  if (!url.pathname.startsWith("/portal/")) return null;
  const way = requestWay(request);
  // Only the shop's language is read here (not private); the page's own
  // loader checks the app proxy signature before showing anything.
  const where =
    way === "custom"
      ? { portalDomain: request.headers.get(PORTAL_SHOP_HEADER) ?? "" }
      : way === "proxy"
        ? { domain: (url.searchParams.get("shop") ?? "").toLowerCase() }
        : { domain: `${params.handle ?? ""}.myshopify.com` };
  return getDb().shop.findFirst({ where: { ...where, uninstalledAt: null }, select: shopLanguage });
}

async function affiliateSideLanguage(request: Request, url: URL, params: Params, context: unknown) {
  const pseudo = pseudoLocaleEnabled();
  // The same lookup as the page's door (requireAffiliate), made once.
  const [affiliate, pageShop] = await Promise.all([
    sessionAffiliate(request, context),
    portalShop(request, url, params),
  ]);
  // A logged-in affiliate looking at another shop's portal is a visitor there.
  const own = affiliate && (!pageShop || pageShop.id === affiliate.shop.id) ? affiliate : null;
  const shop = pageShop ?? own?.shop ?? null;
  const language = chooseAffiliateLanguage(
    {
      explicit: url.searchParams.get("lang"),
      saved: own?.language,
      shop: shop?.language,
      acceptLanguage: request.headers.get("accept-language"),
    },
    { pseudo },
  );
  return { language, shop };
}

async function adminLanguage(request: Request, url: URL, context: unknown) {
  // The same lookup as the page's door (sessionUserWithShop), made once.
  const user = await sessionUserWithShop(request, context);
  let shop: ShopLanguage | null = user ? user.shop : null;
  const domain = url.searchParams.get("shop");
  if (!shop && domain) {
    shop = await getDb().shop.findFirst({ where: { domain: domain.toLowerCase() }, select: shopLanguage });
  }
  return { language: chooseAdminLanguage(shop?.language, { pseudo: pseudoLocaleEnabled() }), shop };
}

function toPageLocale(language: LanguageInfo, overrides: Overrides): PageLocale {
  return { code: language.code, tag: language.tag, dir: language.dir, overrides };
}

export async function pageLocale(request: Request, params: Params, context?: unknown): Promise<PageLocale> {
  try {
    const url = new URL(request.url);
    // The shop the rules read, for its overrides below.
    const seen: { shop: ShopLanguage | null } = { shop: null };
    const detector = pageLanguageDetector(async () => {
      const found = isAffiliateSide(url.pathname)
        ? await affiliateSideLanguage(request, url, params, context)
        : await adminLanguage(request, url, context);
      seen.shop = found.shop;
      return found.language.tag;
    });
    const tag = await detector.getLocale(request);
    const language = languageByTag(tag) ?? DEFAULT_LANGUAGE_INFO;
    const { shop } = seen;
    const overrides = shop ? await pageOverrides(shopDb(getDb(), shop.id), shop, language.code) : {};
    return toPageLocale(language, overrides);
  } catch (error) {
    // A bad cookie or an unreadable database must not stop the page: English.
    console.error("[i18n] could not decide the page language:", error);
    return toPageLocale(DEFAULT_LANGUAGE_INFO, {});
  }
}
