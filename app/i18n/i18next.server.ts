import type { EntryContext } from "@remix-run/node";
import { createInstance, type i18n, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { getConfig } from "../config.server";
import { i18nConfig, scriptJson, type I18nPayload } from "./i18n";
import { DEFAULT_LANGUAGE_INFO, languageInfo, PSEUDO_LANGUAGE, type LanguageInfo } from "./language-table";
import type { PageLocale } from "./locale.server";
import type { RouteHandle } from "./route-handle";
import type { Overrides } from "./overrides";
import { matchedRouteNamespaces } from "./remix-i18next.server";
import { pageResources } from "./resources.server";

/** The matched routes' handles, with their route ids. */
function handles(context: EntryContext): { routeId: string; handle: RouteHandle }[] {
  return context.staticHandlerContext.matches.map((m) => ({
    routeId: m.route.id,
    handle: (context.routeModules[m.route.id]?.handle ?? {}) as RouteHandle,
  }));
}

/**
 * The namespaces the matched routes name in handle.i18n (read by
 * remix-i18next), those their handle.i18nShown asks for what this document
 * shows, and Global.
 */
function routeNamespaces(context: EntryContext, matched: ReturnType<typeof handles>): string[] {
  const { loaderData, errors } = context.staticHandlerContext;
  const shownErrors = Object.values(errors ?? {});
  const shown = matched.flatMap(
    ({ routeId, handle: h }) => h.i18nShown?.({ data: loaderData?.[routeId], errors: shownErrors }) ?? [],
  );
  return [...new Set(["Global", ...matchedRouteNamespaces(context), ...shown])];
}

/**
 * The i18next instance a document renders with (the language the root loader
 * chose, every namespace of the page already in memory, so rendering never
 * waits and never shows another language), and the payload for the browser.
 * Affiliate pages are server-rendered only (root.tsx): they need no payload.
 */
export function pageI18n(context: EntryContext): { instance: i18n; payload: string | null } {
  const root = context.staticHandlerContext.loaderData?.root as { locale?: PageLocale } | undefined;
  const language = languageInfo(root?.locale?.code) ?? DEFAULT_LANGUAGE_INFO;
  const overrides = root?.locale?.overrides ?? {};
  const matched = handles(context);
  const ns = routeNamespaces(context, matched);
  const { instance, resources } = pageInstance(language, ns, overrides);
  if (matched.some(({ handle }) => handle.portal === true)) return { instance, payload: null };
  const payload: I18nPayload = {
    tag: language.tag,
    code: language.code,
    // The pseudo-locale is made by this app (app-server.ts), never by a content host.
    baseUrl: language === PSEUDO_LANGUAGE ? "/locales" : getConfig().TRANSLATIONS_BASE_URL,
    resources: resources[language.tag]!,
    overrides,
  };
  return { instance, payload: scriptJson(payload) };
}

// Building and initialising an i18next instance costs about 2 % of a page's
// CPU; pages of one language, namespace set and overrides render with the
// same one. An instance is only read while rendering (no page changes its
// language on the server), so concurrent requests may share it. Bounded:
// overrides differ per shop.
const PAGE_INSTANCES_MAX = 500;
const pageInstances = new Map<string, { instance: i18n; resources: ReturnType<typeof pageResources> }>();

function pageInstance(language: LanguageInfo, ns: string[], overrides: Overrides) {
  const key = `${language.tag}\n${ns.join(",")}\n${JSON.stringify(overrides)}`;
  let hit = pageInstances.get(key);
  if (!hit) {
    const resources = pageResources(language, ns, overrides);
    const instance = createInstance();
    void instance.use(initReactI18next).init({ ...i18nConfig, lng: language.tag, ns, resources, initImmediate: false });
    if (pageInstances.size >= PAGE_INSTANCES_MAX) pageInstances.clear();
    hit = { instance, resources };
    pageInstances.set(key, hit);
  }
  return hit;
}

/**
 * A translate function for text made outside a page (refusals at the
 * server's door, e-mails): the language's namespaces, complete, with the
 * shop's overrides when there is a shop.
 */
export function fixedT(language: LanguageInfo, namespaces: string[], overrides: Overrides = {}): TFunction {
  const instance = createInstance();
  void instance.init({
    ...i18nConfig,
    lng: language.tag,
    ns: namespaces,
    defaultNS: namespaces[0],
    resources: pageResources(language, namespaces, overrides),
    initImmediate: false,
  });
  return instance.t;
}
