import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { LogSeverity, shopifyApi, type ApiVersion } from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { getConfig } from "./config.server";
import { getDb } from "./db.server";
import { logText } from "./lib/log-text";

// OAuth scopes as shopify.app.toml declares them (a unit test holds the two
// equal): spec section 7's, issue 11's store credit payouts, then the app
// proxy's and the web pixel's (issue 27).
export const SCOPES = [
  "read_discounts",
  "write_discounts",
  "read_orders",
  "read_products",
  "read_themes",
  "write_price_rules",
  "read_script_tags",
  "write_script_tags",
  "read_customers",
  "read_store_credit_accounts",
  "write_store_credit_account_transactions",
  "write_gift_cards",
  "write_app_proxy",
  "write_pixels",
  "read_customer_events",
  // Issue 32: the subscription_contracts webhooks (ADR 047).
  "read_own_subscription_contracts",
];

// The libraries put values from requests (the `shop` parameter, above all)
// into their log lines as they come: escaped here, so none can start a line.
const logger = {
  level: LogSeverity.Error,
  log: (severity: LogSeverity, message: string) => {
    const line = logText(message);
    if (severity === LogSeverity.Error) console.error(line);
    else if (severity === LogSeverity.Warning) console.warn(line);
    else console.info(line);
  },
};

let app: ReturnType<typeof createShopifyApp> | undefined;
let api: ReturnType<typeof createShopifyApi> | undefined;

function sharedConfig() {
  const config = getConfig();
  installFetchRewrite(config.SHOPIFY_ADMIN_BASE_URL);
  return {
    apiKey: config.SHOPIFY_API_KEY,
    apiSecretKey: config.SHOPIFY_API_SECRET,
    apiVersion: config.SHOPIFY_API_VERSION as ApiVersion,
    scopes: SCOPES,
    appUrl: config.appUrl,
  };
}

function createShopifyApp() {
  return shopifyApp({
    ...sharedConfig(),
    authPathPrefix: "/auth",
    sessionStorage: new PrismaSessionStorage(getDb(), { connectionRetries: 1 }),
    distribution: AppDistribution.AppStore,
    isEmbeddedApp: true,
    logger,
  });
}

function createShopifyApi() {
  const shared = sharedConfig();
  const url = new URL(shared.appUrl);
  return shopifyApi({
    apiKey: shared.apiKey,
    apiSecretKey: shared.apiSecretKey,
    apiVersion: shared.apiVersion,
    scopes: shared.scopes,
    hostName: url.host,
    hostScheme: url.protocol === "https:" ? "https" : "http",
    isEmbeddedApp: true,
    logger,
  });
}

/** The shopify-app-remix instance: authenticate.admin, webhook, public... */
export function shopify() {
  app ??= createShopifyApp();
  return app;
}

/** The underlying Shopify API library, for the OAuth begin/callback of /auth. */
export function shopifyLib() {
  api ??= createShopifyApi();
  return api;
}

// Every call to Shopify goes to https://{shop}/... . When SHOPIFY_ADMIN_BASE_URL
// is set (tests, the store simulator), those calls go to {base}/shops/{shop}/...
// instead, so a local fake that speaks Shopify's protocol can answer them.
let rewriteInstalledFor: string | undefined;
function installFetchRewrite(base: string | undefined) {
  if (!base || rewriteInstalledFor === base) return;
  rewriteInstalledFor = base;
  const target = base.replace(/\/$/, "");
  setAbstractFetchFunc(async (input: RequestInfo | URL, init?: RequestInit) => {
    const original = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    if (/\.myshopify\.com$/.test(original.hostname) || original.hostname.endsWith(".shopify.com")) {
      const rewritten = `${target}/shops/${original.hostname}${original.pathname}${original.search}`;
      return fetch(rewritten, init);
    }
    return fetch(input, init);
  });
}
