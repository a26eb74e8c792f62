import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import HttpBackend from "i18next-http-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18nConfig, TRANSLATION_TIMEOUT_MS } from "./i18n/i18n";

// Translation files are fetched per language and namespace, when a screen
// needs them, from /locales (long-cached static files).
async function fetchTranslations(
  _options: unknown,
  url: string,
  _payload: unknown,
  callback: (error: unknown, response?: { status: number; data: string }) => void,
) {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(TRANSLATION_TIMEOUT_MS),
      credentials: "same-origin",
    });
    callback(null, { status: response.status, data: await response.text() });
  } catch (error) {
    callback(error);
  }
}

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(HttpBackend)
    .init({
      ...i18nConfig,
      lng: document.documentElement.lang || "en",
      ns: getInitialNamespaces(),
      backend: { loadPath: "/locales/{{lng}}/{{ns}}.json", request: fetchTranslations },
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
