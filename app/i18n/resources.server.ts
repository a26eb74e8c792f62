import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Resource, ResourceLanguage } from "i18next";
import { getConfig } from "../config.server";
import { hasNamespace, languageInfo, PSEUDO_LANGUAGE, type LanguageInfo } from "./language-table";
import { NAMESPACES } from "./languages";
import { applyOverrides, mergeTrees, type Overrides } from "./overrides";
import { pseudoTree } from "./pseudo";
import type { Tree } from "./translation-check";

// The server's translations: each (language, namespace) file is read and
// parsed once per process, the first time a page needs it (lazy per
// namespace, like the browser), and shared by every request after that. The
// files ship with the app and never change while it runs, so a second
// instance reads the same thing: nothing here is state another process needs.

const LOCALES = path.resolve("public/locales");

/** The pseudo-locale is served in tests, elsewhere only with PSEUDO_LOCALE=1. */
export function pseudoLocaleEnabled(): boolean {
  const config = getConfig();
  return config.NODE_ENV === "test" || config.PSEUDO_LOCALE === "1";
}
const KNOWN_NAMESPACES = new Set<string>(NAMESPACES);
const cache = new Map<string, Tree | null>();

/** One namespace of one language (product code), or null when it does not ship. */
export function loadNamespace(code: string, ns: string): Tree | null {
  const key = `${code}/${ns}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let tree: Tree | null = null;
  // Only names from the table reach the file system, never a request's text.
  if (KNOWN_NAMESPACES.has(ns)) {
    if (code === PSEUDO_LANGUAGE.code) {
      const english = loadNamespace("en", ns);
      tree = english && pseudoTree(english);
    } else if (languageInfo(code)) {
      const file = path.join(LOCALES, code, `${ns}.json`);
      tree = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Tree) : null;
    }
  }
  cache.set(key, tree);
  return tree;
}

let polarisCache: Map<string, unknown> | undefined;

// @shopify/polaris/locales ships these (file name = tag, except where noted).
const POLARIS_FILES: Record<string, string> = {
  cs: "cs", da: "da", de: "de", en: "en", es: "es", fi: "fi", fr: "fr", it: "it", ja: "ja", ko: "ko", nb: "nb",
  nl: "nl", pl: "pl", "pt-BR": "pt-BR", "pt-PT": "pt-PT", sv: "sv", th: "th", tr: "tr", vi: "vi",
  "zh-CN": "zh-CN", "zh-TW": "zh-TW",
}; // prettier-ignore

/** Polaris's own strings (date pickers, pagination, ...) for a language, when Polaris has them. */
export function polarisTranslations(language: LanguageInfo): unknown {
  polarisCache ??= new Map();
  const file = POLARIS_FILES[language.tag];
  if (!file || file === "en") return null;
  if (!polarisCache.has(file)) {
    polarisCache.set(file, JSON.parse(readFileSync(require.resolve(`@shopify/polaris/locales/${file}.json`), "utf8")));
  }
  return polarisCache.get(file) ?? null;
}

const complete = new Map<string, Tree | null>();

/**
 * A namespace as pages use it: the language's file over the English one, so
 * a key that a new English string has not yet brought to this language (the
 * CI check catches that) shows in English rather than as a raw key, and a
 * namespace the language does not ship (an admin namespace on an
 * account-coverage language) is English. Cached like the files.
 */
export function completeNamespace(code: string, ns: string): Tree | null {
  const key = `${code}/${ns}`;
  const hit = complete.get(key);
  if (hit !== undefined) return hit;
  const english = loadNamespace("en", ns);
  const info = languageInfo(code);
  const own = code !== "en" && info && hasNamespace(info, ns) ? loadNamespace(code, ns) : null;
  const tree = own && english ? mergeTrees(english, own) : (own ?? english);
  complete.set(key, tree);
  return tree;
}

/**
 * i18next resources for one page: each namespace complete (see above) with
 * the shop's overrides over it, and Polaris's own strings for the language
 * as the "polaris" namespace (Polaris falls back to English for the rest).
 */
export function pageResources(language: LanguageInfo, namespaces: readonly string[], overrides: Overrides): Resource {
  const bundle: ResourceLanguage = {};
  for (const ns of namespaces) {
    const tree = completeNamespace(language.code, ns);
    if (tree) bundle[ns] = overrides[ns] ? applyOverrides(tree, overrides[ns]) : tree;
  }
  const polaris = polarisTranslations(language);
  if (polaris) bundle.polaris = polaris as ResourceLanguage[string];
  return { [language.tag]: bundle };
}
