import type { EntryContext } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE_INFO, LANGUAGES, PSEUDO_LANGUAGE } from "./language-table";

// remix-i18next does what it is made for here: detecting a document's
// language and reading the namespaces its routes name. Translations are not
// loaded through it (no backend, no getFixedT): the server renders from its
// own per-process cache and the browser from the document's payload (ADR 019).

/** Every tag a page may be in: i18next's languages are tags, not the product's codes. */
const SUPPORTED_TAGS = [...LANGUAGES.map((l) => l.tag), PSEUDO_LANGUAGE.tag];

/**
 * The language detector of one document. `findLocale` is the app's rule (the
 * shop's language in the admin; the page's pick, the affiliate's saved choice,
 * the shop's, then the browser's on the affiliate side: locale.server.ts) and
 * the only source asked: the admin must follow the shop whatever the browser
 * says, and the affiliate side matches Accept-Language with
 * @formatjs/intl-localematcher (pt finds pt-BR, zh-HK finds zh-TW), which
 * knows regions better than the library's header parser. What it returns is
 * checked against the supported tags; anything else is English.
 */
export function pageLanguageDetector(findLocale: (request: Request) => Promise<string | null>): RemixI18Next {
  return new RemixI18Next({
    detection: {
      supportedLanguages: SUPPORTED_TAGS,
      fallbackLanguage: DEFAULT_LANGUAGE_INFO.tag,
      order: ["custom"],
      findLocale,
    },
  });
}

// Reads handle.i18n only; it never detects.
const namespaceReader = new RemixI18Next({
  detection: { supportedLanguages: SUPPORTED_TAGS, fallbackLanguage: DEFAULT_LANGUAGE_INFO.tag },
});

/**
 * The namespaces the document's matched routes name in handle.i18n.
 * remix-i18next reads every route module it is given, and Remix's entry
 * context holds the whole app's: it gets the matched routes' only, so a page
 * carries its own namespaces and not every screen's.
 */
export function matchedRouteNamespaces(context: EntryContext): string[] {
  const routeModules = Object.fromEntries(
    context.staticHandlerContext.matches.map((m) => [m.route.id, context.routeModules[m.route.id]]),
  );
  return namespaceReader.getRouteNamespaces({ ...context, routeModules } as EntryContext);
}
