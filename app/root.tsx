import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
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
import type { ReactNode } from "react";
import { PolarisLink } from "./components/PolarisLink";
import { GenericErrorScreen } from "./components/GenericErrorScreen";
import { useNonce } from "./lib/nonce";
import { NotFoundScreen } from "./components/StatusScreens";
import { getConfig } from "./config.server";
import { requestLanguage } from "./i18n/locale.server";
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

export const meta: MetaFunction = () => [{ title: "Affiliate & Referral" }];

export const handle = { i18n: ["Global"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const config = getConfig();
  const params = new URL(request.url).searchParams;
  // Embedded documents (opened by the Shopify admin) load App Bridge; a
  // standalone page never loads anything from outside the app.
  const embedded = params.get("embedded") === "1" || params.has("host");
  return json({
    locale: await requestLanguage(request),
    embedded,
    apiKey: embedded ? config.SHOPIFY_API_KEY : null,
    supportEmail: config.SUPPORT_EMAIL,
    productName: config.APP_NAME,
    // Portal pages through the app proxy are served on the shop's domain:
    // their stylesheets must come from the app's own origin.
    assetOrigin: requestWay(request) === "proxy" ? config.appUrl : "",
  });
}

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

function Document({
  children,
  locale,
  embedded,
  apiKey,
  assetOrigin = "",
}: {
  children: ReactNode;
  locale: string;
  embedded: boolean;
  apiKey: string | null;
  assetOrigin?: string;
}) {
  const { i18n } = useTranslation();
  const serverOnly = useServerOnly();
  const nonce = useNonce();
  return (
    <html lang={locale} dir={i18n.dir(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {embedded && apiKey ? (
          <>
            <meta name="shopify-api-key" content={apiKey} />
            <script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" nonce={nonce} />
          </>
        ) : null}
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
      <body>
        <AppProvider i18n={polarisTranslations} linkComponent={PolarisLink}>
          {children}
        </AppProvider>
        {serverOnly ? null : (
          <>
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
  useChangeLanguage(data.locale);
  return (
    <Document locale={data.locale} embedded={data.embedded} apiKey={data.apiKey} assetOrigin={data.assetOrigin}>
      <Outlet />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const locale = data?.locale ?? "en";
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return (
    <Document locale={locale} embedded={false} apiKey={null}>
      {isRouteErrorResponse(error) && error.status === 404 ? (
        <NotFoundScreen dashboardUrl="/admin/dashboard" />
      ) : (
        <GenericErrorScreen
          context={{
            role: "admin",
            supportEmail: data?.supportEmail ?? "support@example.com",
            productName: data?.productName ?? "Affiliate & Referral",
          }}
        />
      )}
    </Document>
  );
}
