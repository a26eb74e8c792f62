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
import { NotFoundScreen } from "./components/StatusScreens";
import { getConfig } from "./config.server";
import { requestLanguage } from "./i18n/locale.server";
import appStyles from "./styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
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
  });
}

export type RootData = ReturnType<typeof useLoaderData<typeof loader>>;

function Document({ children, locale, embedded, apiKey }: { children: ReactNode; locale: string; embedded: boolean; apiKey: string | null }) {
  const { i18n } = useTranslation();
  return (
    <html lang={locale} dir={i18n.dir(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {embedded && apiKey ? (
          <>
            <meta name="shopify-api-key" content={apiKey} />
            <script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" />
          </>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        <AppProvider i18n={polarisTranslations} linkComponent={PolarisLink}>
          {children}
        </AppProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  useChangeLanguage(data.locale);
  return (
    <Document locale={data.locale} embedded={data.embedded} apiKey={data.apiKey}>
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
