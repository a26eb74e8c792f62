import type { LinksFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
  useMatches,
  isRouteErrorResponse,
} from "@remix-run/react";
import { AppProvider } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { useEffect, useMemo, type CSSProperties, type ReactNode } from "react";
import { PolarisLink } from "./components/PolarisLink";
import { GenericErrorScreen } from "./components/GenericErrorScreen";
import { useAppBridgeNavigation } from "./lib/app-bridge-navigation";
import { useNonce } from "./lib/nonce";
import { NotFoundScreen } from "./components/StatusScreens";
import { getConfig } from "./config.server";
import { publicRoute } from "./door/public-route.server";
import { pageLocale, type PageLocale } from "./i18n/locale.server";
import { updateOverrides } from "./i18n/live-overrides";
import { I18nDataScript } from "./i18n/payload";
import { documentTitle, screenTitle, titleBrand, titleNamespace, type TitleKey } from "./i18n/page-title";
import { requestWay } from "./models/portal/portal-context.server";
import appStyles from "./styles/app.css";

// The .ico is for browsers (and tools) that ask for /favicon.ico whatever the
// page says; the SVG is sharper wherever it is understood.
const FAVICON_LINKS = [
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: appStyles },
  ...FAVICON_LINKS,
];

export const handle = { i18n: ["Global"] };

// Every document's shell data; open to everyone (login pages included).
export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async ({ request, params, context }) => {
  const config = getConfig();
  const search = new URL(request.url).searchParams;
  // Embedded documents (opened by the Shopify admin) load App Bridge; a
  // standalone page never loads anything from outside the app.
  const embedded = search.get("embedded") === "1" || search.has("host");
  return {
    locale: await pageLocale(request, params, context),
    embedded,
    apiKey: embedded ? config.SHOPIFY_API_KEY : null,
    supportEmail: config.SUPPORT_EMAIL,
    productName: config.APP_NAME,
    // Portal pages through the app proxy are served on the shop's domain:
    // their stylesheets must come from the app's own origin.
    assetOrigin: requestWay(request) === "proxy" ? config.appUrl : "",
  };
});

/**
 * Affiliate portal and account pages (handle.portal) are rendered on the
 * server only: the same HTML then works on the app domain, a custom domain
 * and through the app proxy, where the app's scripts and Remix's client
 * router (which needs the URL it rendered) are not available.
 */
function useServerOnly(): boolean {
  return useMatches().some((m) => (m.handle as { portal?: boolean } | undefined)?.portal === true);
}

export type RootData = ReturnType<typeof useLoaderData<typeof loader>>;

const DEFAULT_PRODUCT_NAME = "Affiliate & Referral";

/**
 * The document's <title>: the screen the deepest route names in handle.title
 * (or the error screen's), translated, then the app's or the shop's name.
 * Until a screen's namespace has loaded in the browser, the name alone.
 */
function DocumentTitle({ productName, screen }: { productName: string; screen?: TitleKey }) {
  const matches = useMatches();
  const title = screen === undefined ? screenTitle(matches) : typeof screen === "string" ? { key: screen } : screen;
  const { t, ready } = useTranslation(title ? titleNamespace(title.key) : "Global");
  const text = title && ready ? t(title.key, title.values ?? {}) : null;
  const brand = title?.brand === false ? null : titleBrand(matches, productName);
  return <title>{documentTitle(text, brand)}</title>;
}

const ENGLISH: PageLocale = { code: "en", tag: "en", dir: "ltr", overrides: {} };

/** Polaris's own strings in the page's language (loaded with the page's namespaces), over English. */
function usePolarisTranslations() {
  const { i18n } = useTranslation();
  const own = i18n.getResourceBundle(i18n.language, "polaris") as typeof polarisTranslations | undefined;
  return useMemo(() => (own ? [own, polarisTranslations] : polarisTranslations), [own]);
}

// What Polaris's AppProvider, Frame and IndexTable write on <html> and
// <body> when they mount, written by the server instead: each of those
// writes (a theme class, body colours, custom properties on the root) made
// the browser restyle the whole page, and the reads between them (the top
// bar's height, the scrollbar test, the checkbox cell's width) forced a full
// style and layout each, 60-80 ms apiece at 4× CPU on a list's hydration.
// Polaris writes the same values again; an unchanged value invalidates
// nothing. The checkbox cell's width is Polaris's CSS (--pc-checkbox-offset:
// a list's selection column); a different value is written as before.
// Server-only pages (the portal) never mount Polaris in the browser and keep
// the plain root they had.
const POLARIS_MOUNTED_HTML = {
  className: "p-theme-light",
  style: {
    "--pc-frame-offset": "0px",
    "--pc-frame-global-ribbon-height": "0px",
    "--pc-checkbox-offset": "38px",
  } as CSSProperties,
};
const POLARIS_MOUNTED_BODY = {
  style: { backgroundColor: "var(--p-color-bg)", color: "var(--p-color-text)" } as CSSProperties,
};
// The scrollbar's width is the browser's: measured first thing in the head,
// before any stylesheet (a script after one waits for it to load) and while
// there is nothing to restyle, as AppProvider measures it (a thin scrollbar
// in a 30 px box, at most 20 px; no stylesheet of ours styles a div's).
const SCROLLBAR_WIDTH_SCRIPT = `(function () {
  var box = document.createElement("div");
  box.style.cssText = "position:absolute;opacity:0;pointer-events:none;transform:translate3d(-9999px,-9999px,0);width:30px;height:30px";
  var inner = document.createElement("div");
  inner.style.cssText = "width:100%;overflow:scroll;scrollbar-width:thin";
  box.appendChild(inner);
  document.documentElement.appendChild(box);
  var width = Math.min(30 - inner.clientWidth, 20);
  box.remove();
  document.documentElement.style.setProperty("--pc-app-provider-scrollbar-width", width + "px");
})();`;

function Document({
  children,
  locale,
  embedded,
  apiKey,
  assetOrigin = "",
  productName,
  screen,
}: {
  children: ReactNode;
  locale: PageLocale;
  embedded: boolean;
  apiKey: string | null;
  assetOrigin?: string;
  productName: string;
  /** The error screen's title, instead of the route's. */
  screen?: TitleKey;
}) {
  const serverOnly = useServerOnly();
  const polaris = usePolarisTranslations();
  const nonce = useNonce();
  // The mark that the page has hydrated, for the browser tests and the vitals
  // bench (they click only then): the server's HTML already carries all that
  // Polaris writes when it mounts, so nothing else in the DOM says so.
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
  return (
    <html lang={locale.tag} dir={locale.dir} {...(serverOnly ? {} : POLARIS_MOUNTED_HTML)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {serverOnly ? null : <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCROLLBAR_WIDTH_SCRIPT }} />}
        {embedded && apiKey ? (
          <>
            <meta name="shopify-api-key" content={apiKey} />
            <script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" nonce={nonce} />
          </>
        ) : null}
        <DocumentTitle productName={productName} screen={screen} />
        <Meta />
        {serverOnly ? (
          <>
            <link rel="stylesheet" href={assetOrigin + polarisStyles} />
            <link rel="stylesheet" href={assetOrigin + appStyles} />
            {FAVICON_LINKS.map((icon) => (
              <link key={icon.href} {...icon} href={assetOrigin + icon.href} />
            ))}
          </>
        ) : (
          <Links />
        )}
      </head>
      <body {...(serverOnly ? {} : POLARIS_MOUNTED_BODY)}>
        <AppProvider i18n={polaris} linkComponent={PolarisLink}>
          {children}
        </AppProvider>
        {serverOnly ? null : (
          <>
            <I18nDataScript />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { i18n } = useTranslation();
  useAppBridgeNavigation();
  // The shop's language changed (Settings > General): load the new one. The
  // next full page load also brings Polaris's own strings in it.
  useChangeLanguage(data.locale.tag);
  // The shop's own texts changed (Settings > Translations): apply them here too.
  const overrides = JSON.stringify(data.locale.overrides);
  useEffect(() => updateOverrides(i18n, JSON.parse(overrides)), [overrides, i18n]);
  return (
    <Document
      locale={data.locale}
      embedded={data.embedded}
      apiKey={data.apiKey}
      assetOrigin={data.assetOrigin}
      productName={data.productName}
    >
      <Outlet />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const locale = data?.locale ?? ENGLISH;
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const productName = data?.productName ?? DEFAULT_PRODUCT_NAME;
  return (
    <Document
      locale={locale}
      embedded={false}
      apiKey={null}
      productName={productName}
      screen={notFound ? "Global:notFound.title" : "Global:error.title"}
    >
      {/* No shell (and its <main>) around a page that failed this early. */}
      <main>
        {notFound ? (
          <NotFoundScreen dashboardUrl="/admin/dashboard" />
        ) : (
          <GenericErrorScreen
            context={{ role: "admin", supportEmail: data?.supportEmail ?? "support@example.com", productName }}
          />
        )}
      </main>
    </Document>
  );
}
