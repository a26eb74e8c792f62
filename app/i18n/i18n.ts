import type { InitOptions, ResourceLanguage } from "i18next";
import type { Overrides } from "./overrides";

// Shared by server and client. i18next's languages are BCP 47 tags (ja,
// pt-BR: what Intl and the CLDR plural rules understand); the product's codes
// (jp, prt) are only folder names and stored values (language-table.ts).
export const i18nConfig = {
  // Every namespace a page gets is already complete (the language's file
  // over English, resources.server.ts), so i18next never loads a second
  // language as a fallback.
  fallbackLng: false,
  load: "currentOnly",
  defaultNS: "Global",
  // Namespace names contain dots (Account.Common), so keys use ":" for the
  // namespace and "." for nesting, as i18next does by default.
  interpolation: { escapeValue: false },
  // Re-render when a namespace arrives or is fetched again (a changed override).
  react: { useSuspense: false, bindI18n: "languageChanged loaded" },
} satisfies InitOptions;

// Spec section 7: translation files load with a 120-second timeout.
export const TRANSLATION_TIMEOUT_MS = 120_000;

/**
 * What the server hands the browser in the document (script#i18n-data): the
 * namespaces it rendered with, so the first render in the browser is the
 * server's text exactly (no flash of English, no request before hydration),
 * and where to load the rest from.
 */
export interface I18nPayload {
  tag: string;
  code: string;
  /** TRANSLATIONS_BASE_URL: files at {baseUrl}/{code}/{namespace}.json. */
  baseUrl: string;
  resources: ResourceLanguage;
  /** The shop's own texts, applied to namespaces loaded later too. */
  overrides: Overrides;
}

export const I18N_PAYLOAD_ID = "i18n-data";

/** JSON that is safe inside a <script> element (no "</script>", no line separators). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
