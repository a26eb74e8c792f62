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
  const page = pageInstance(language, ns, overrides);
  if (matched.some(({ handle }) => handle.portal === true)) return { instance: page.instance, payload: null };
  // The pseudo-locale is made by this app (app-server.ts), never by a content host.
  const baseUrl = language === PSEUDO_LANGUAGE ? "/locales" : getConfig().TRANSLATIONS_BASE_URL;
  // The same for every page of the instance: its JSON (12-16 KB) is made once.
  if (page.payload?.baseUrl !== baseUrl) {
    const payload: I18nPayload = {
      tag: language.tag,
      code: language.code,
      baseUrl,
      resources: page.resources[language.tag]!,
      overrides,
    };
    page.payload = { baseUrl, json: scriptJson(payload) };
  }
  return { instance: page.instance, payload: page.payload.json };
}

// Building and initialising an i18next instance costs about 2 % of a page's
// CPU; pages of one language, namespace set and overrides render with the
// same one. An instance is only read while rendering (no page changes its
// language on the server), so concurrent requests may share it. Bounded:
// overrides differ per shop.
const PAGE_INSTANCES_MAX = 500;
interface PageInstance {
  instance: i18n;
  resources: ReturnType<typeof pageResources>;
  /** The browser's payload as JSON, made on the first document that sends it. */
  payload?: { baseUrl: string; json: string };
}
const pageInstances = new Map<string, PageInstance>();

function pageInstance(language: LanguageInfo, ns: string[], overrides: Overrides): PageInstance {
  const key = `${language.tag}\n${ns.join(",")}\n${JSON.stringify(overrides)}`;
  let hit = pageInstances.get(key);
  if (!hit) {
    const resources = pageResources(language, ns, overrides);
    const instance = createInstance();
    void instance.use(initReactI18next).init({ ...i18nConfig, lng: language.tag, ns, resources, initImmediate: false });
    rememberPlainLookups(instance);
    if (pageInstances.size >= PAGE_INSTANCES_MAX) pageInstances.clear();
    hit = { instance, resources };
    pageInstances.set(key, hit);
  }
  return hit;
}

// A look-up whose options are all plain values (the key a string; count,
// context, defaultValue and values to interpolate strings, numbers or
// booleans; ns and lngs strings or lists of them) gives the same text every
// time on a page instance (one language, resources never changed). Objects
// (React elements, formatters, interpolation settings) and the options that
// return objects instead of text pass through.
const NOT_TEXT_OPTIONS = new Set(["returnObjects", "returnDetails"]);
const REMEMBERED_LOOKUPS_MAX = 5_000;

/** The cache key of a look-up that always gives the same text, or null. */
function plainLookup(language: string, key: unknown, options: unknown): string | null {
  if (typeof key !== "string") return null;
  let cacheKey = `${language}\0${key}`;
  if (options === undefined) return cacheKey;
  if (typeof options !== "object" || options === null) return null;
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    if (NOT_TEXT_OPTIONS.has(name)) return null;
    if (typeof value === "string") cacheKey += `\0${name}=s${value}`;
    else if (typeof value === "number" || typeof value === "boolean") cacheKey += `\0${name}=${typeof value}${value}`;
    else if ((name === "ns" || name === "lngs") && Array.isArray(value) && value.every((v) => typeof v === "string"))
      cacheKey += `\0${name}=a${value.join("\0")}`;
    else return null;
  }
  return cacheKey;
}

/**
 * i18next's `t` costs tens of microseconds a call (option objects, key and
 * namespace parsing, interpolation), and a page asks for the same texts on
 * every document (navigation, headings, tabs, counts): a page instance
 * remembers what each plain look-up gave. Safe on the server only, where an
 * instance's language and resources never change after init (pageInstance).
 */
function rememberPlainLookups(instance: i18n) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const known = new Map<string, unknown>();
  const t = (key: unknown, options?: unknown, ...rest: unknown[]) => {
    const cacheKey = rest.length ? null : plainLookup(instance.language, key, options);
    if (cacheKey === null) return (translate as (...args: unknown[]) => unknown)(key, options, ...rest);
    if (known.has(cacheKey)) return known.get(cacheKey);
    const text = translate(key, options);
    if (known.size >= REMEMBERED_LOOKUPS_MAX) known.clear();
    known.set(cacheKey, text);
    return text;
  };
  instance.t = t as unknown as i18n["t"];
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
