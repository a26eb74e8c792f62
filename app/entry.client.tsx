import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import HttpBackend from "i18next-http-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig, I18N_PAYLOAD_ID, TRANSLATION_TIMEOUT_MS, type I18nPayload } from "./i18n/i18n";
import { languageByTag } from "./i18n/language-table";
import { currentOverrides, initOverrides } from "./i18n/live-overrides";
import { applyOverrides } from "./i18n/overrides";
import { I18nPayloadContext } from "./i18n/payload";
import type { Tree } from "./i18n/translation-check";

// The page's namespaces come in the document (script#i18n-data), exactly as
// the server rendered them; namespaces a later screen needs are fetched from
// TRANSLATIONS_BASE_URL, one file per language and namespace, when that
// screen first asks for them, with the spec's 120-second timeout.
async function fetchTranslations(
  _options: unknown,
  url: string,
  _payload: unknown,
  callback: (error: unknown, response?: { status: number; data: string }) => void,
) {
  try {
    const sameOrigin = url.startsWith("/") || url.startsWith(window.location.origin);
    const response = await fetch(url, {
      signal: AbortSignal.timeout(TRANSLATION_TIMEOUT_MS),
      credentials: sameOrigin ? "same-origin" : "omit",
    });
    callback(null, { status: response.status, data: await response.text() });
  } catch (error) {
    callback(error);
  }
}

function readPayload(): { text: string; data: I18nPayload } | null {
  const text = document.getElementById(I18N_PAYLOAD_ID)?.textContent;
  if (!text) return null;
  return { text, data: JSON.parse(text) as I18nPayload };
}

async function hydrate() {
  const payload = readPayload();
  const data = payload?.data;
  const baseUrl = data?.baseUrl ?? "/locales";
  initOverrides(data?.overrides ?? {});
  await i18next
    .use(initReactI18next)
    .use(HttpBackend)
    .init({
      ...i18nConfig,
      lng: data?.tag ?? document.documentElement.lang ?? "en",
      ns: Object.keys(data?.resources ?? { Global: {} }),
      resources: data ? { [data.tag]: data.resources } : undefined,
      // Namespaces not in the document still load through the backend.
      partialBundledLanguages: true,
      backend: {
        // Files are named by the product's code (jp), i18next by the tag (ja).
        loadPath: (lngs: string[], namespaces: string[]) =>
          `${baseUrl}/${languageByTag(lngs[0])?.code ?? "en"}/${namespaces[0]}.json`,
        request: fetchTranslations,
        // The shop's own texts win over the files here as on the server.
        parse: (text: string, lng?: string | string[], ns?: string | string[]) => {
          const tree = JSON.parse(text) as Tree;
          const own = lng === i18next.language && typeof ns === "string" ? currentOverrides()[ns] : undefined;
          return own ? applyOverrides(tree, own) : tree;
        },
      },
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <I18nPayloadContext.Provider value={payload?.text ?? null}>
          <StrictMode>
            <RemixBrowser />
          </StrictMode>
        </I18nPayloadContext.Provider>
      </I18nextProvider>,
    );
  });
}

void hydrate();
