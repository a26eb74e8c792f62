import { DEFAULT_LANGUAGE, SHIPPED_LANGUAGES } from "./languages";

// Shared by server and client. Namespaces load per language and namespace,
// on demand: each route names what it needs in `handle.i18n`.
export const i18nConfig = {
  supportedLngs: [...SHIPPED_LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "Global",
  ns: ["Global"],
  // Namespace names contain dots (Account.Common), so keys use ":" for the
  // namespace and "." for nesting, as i18next does by default.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

// Spec section 7: translation files load with a 120-second timeout.
export const TRANSLATION_TIMEOUT_MS = 120_000;
