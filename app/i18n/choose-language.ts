import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import {
  ADMIN_LANGUAGES,
  DEFAULT_LANGUAGE_INFO,
  languageInfo,
  PORTAL_LANGUAGES,
  PSEUDO_LANGUAGE,
  type LanguageInfo,
} from "./language-table";

// Which language a page or an e-mail is in (pure: callers read the database
// and the request). Spec section 1: the admin follows the shop's language,
// default and fallback en. Affiliates choose their own.

export interface ChooseOptions {
  /** The pseudo-locale is allowed (tests, or PSEUDO_LOCALE=1). */
  pseudo?: boolean;
}

/** The admin's language: the shop's, when it is one of the full set. */
export function chooseAdminLanguage(
  shopLanguage: string | null | undefined,
  options: ChooseOptions = {},
): LanguageInfo {
  if (options.pseudo && shopLanguage === PSEUDO_LANGUAGE.code) return PSEUDO_LANGUAGE;
  const info = languageInfo(shopLanguage);
  return info && ADMIN_LANGUAGES.includes(info) ? info : DEFAULT_LANGUAGE_INFO;
}

/** A code an affiliate may use (portal and e-mails), or undefined. */
export function portalLanguage(code: string | null | undefined, options: ChooseOptions = {}): LanguageInfo | undefined {
  if (options.pseudo && code === PSEUDO_LANGUAGE.code) return PSEUDO_LANGUAGE;
  const info = languageInfo(code);
  return info && PORTAL_LANGUAGES.includes(info) ? info : undefined;
}

const NO_MATCH = "und";

/**
 * The best of `candidates` (by default the portal's languages) for a
 * browser's Accept-Language header, if any.
 */
export function matchAcceptLanguage(
  header: string | null | undefined,
  candidates: readonly LanguageInfo[] = PORTAL_LANGUAGES,
): LanguageInfo | undefined {
  if (!header) return undefined;
  const requested = new Negotiator({ headers: { "accept-language": header } })
    .languages()
    .filter((tag) => tag !== "*")
    .flatMap((tag) => {
      try {
        return Intl.getCanonicalLocales(tag);
      } catch {
        return []; // a malformed entry is ignored, not an error
      }
    });
  if (!requested.length) return undefined;
  const tag = match(
    requested,
    candidates.map((l) => l.tag),
    NO_MATCH,
    { algorithm: "best fit" },
  );
  return candidates.find((l) => l.tag === tag);
}

export interface AffiliateLanguageInput {
  /** A language picked on this page (the portal's language menu, ?lang=). */
  explicit?: string | null;
  /** The affiliate's saved choice (Affiliate.language). */
  saved?: string | null;
  /** The shop's language (Shop.language), when the shop is known. */
  shop?: string | null;
  /** The browser's Accept-Language header, for pages seen in a browser. */
  acceptLanguage?: string | null;
}

/**
 * An affiliate's language: what they picked on the page, else their saved
 * choice, else the shop's language, else their browser's, else English.
 * Every step takes only languages an affiliate may use (Account.* coverage).
 */
export function chooseAffiliateLanguage(input: AffiliateLanguageInput, options: ChooseOptions = {}): LanguageInfo {
  return (
    portalLanguage(input.explicit, options) ??
    portalLanguage(input.saved, options) ??
    portalLanguage(input.shop, options) ??
    matchAcceptLanguage(input.acceptLanguage) ??
    DEFAULT_LANGUAGE_INFO
  );
}
