import path from "node:path";
import Backend from "i18next-fs-backend";
import { RemixI18Next } from "remix-i18next/server";
import { i18nConfig } from "./i18n";
import { DEFAULT_LANGUAGE, SHIPPED_LANGUAGES } from "./languages";

export const localesPath = path.resolve("public/locales/{{lng}}/{{ns}}.json");

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SHIPPED_LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
  },
  i18next: { ...i18nConfig, backend: { loadPath: localesPath } },
  plugins: [Backend],
});
