import {
  API_KEY,
  API_SECRET_KEY,
  APP_URL,
  RequestType,
  TEST_SHOP,
  TEST_SHOP_NAME,
  getJwt,
  setUpValidRequest,
  setUpValidSession,
} from "@shopify/shopify-api/test-helpers";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { buildShop } from "../support/builders";
import { expectPage, waitForHydration } from "../support/admin-browser";
import { findChromium, skipWithoutChromium, useBrowser } from "../support/browser";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { SCOPES, shopify } from "~/shopify.server";

// The app inside the Shopify admin, in a real Chromium: a click in Shopify's
// side menu (App Bridge's NavMenu) must move the app with Remix's router, not
// reload the iframe. Shopify's App Bridge script cannot be downloaded here, so
// a stand-in is served at its URL doing the two things these pages rely on:
// it adds the session token to the app's own fetches (as App Bridge does) and
// a menu click is announced as App Bridge announces it, a bubbling
// `shopify:navigate` event on the menu's <a>. Needs the built app.

applyTestEnv();
const chromiumPath = findChromium();

const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

/** What App Bridge does for fetches to the app's own origin: a Bearer session token. */
function appBridgeStandIn(token: string): string {
  return `(() => {
    const token = ${JSON.stringify(token)};
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init = {}) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.origin !== location.origin) return fetch(input, init);
      const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
      headers.set("Authorization", "Bearer " + token);
      return fetch(input, { ...init, headers });
    };
  })();`;
}

/** Clicks an item of Shopify's side menu the way App Bridge reports it to the app. */
async function clickNavMenu(page: Page, href: string) {
  await page.evaluate((target) => {
    const link = document.querySelector(`ui-nav-menu a[href="${target}"]`);
    if (!link) throw new Error(`no NavMenu item ${target}`);
    link.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true, composed: true }));
  }, href);
}

describe.skipIf(skipWithoutChromium(chromiumPath))("embedded admin navigation in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useStoreSimulator({ scopes: SCOPES });
  useTestDatabase();
  const server = useTestServer();

  it("turns a NavMenu click into a client-side navigation that keeps the embedded parameters", async () => {
    await buildShop({ domain: TEST_SHOP });
    await shopify().sessionStorage.storeSession(setUpValidSession({ shop: TEST_SHOP, scope: SCOPES.join(",") }));
    // The document the Shopify admin loads in its iframe, with a one-time id_token.
    const launch = await setUpValidRequest(
      { type: RequestType.Admin, store: TEST_SHOP_NAME, apiKey: API_KEY, apiSecretKey: API_SECRET_KEY },
      new Request(`${APP_URL}/admin/dashboard`),
    );
    const { token } = await getJwt(TEST_SHOP_NAME, API_KEY, API_SECRET_KEY);

    const { page, context, errors } = await browser.newSession(server.url(""));
    // shopify-app-remix refuses bots; Chromium in headless mode says so in its user agent.
    await context.setExtraHTTPHeaders({
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
    });
    await context.route(APP_BRIDGE_URL, (route) =>
      route.fulfill({ contentType: "text/javascript", body: appBridgeStandIn(token) }),
    );

    const url = new URL(launch.url);
    await page.goto(url.pathname + url.search);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    await expect(page.locator("ui-nav-menu a").count()).resolves.toBeGreaterThan(5);
    // A flag on the window survives client-side navigations only.
    await page.evaluate(() => Object.assign(window, { __e2eSameDocument: true }));

    await clickNavMenu(page, "/admin/campaigns");
    await expectPage(page, "/admin/campaigns", "Campaigns");
    await clickNavMenu(page, "/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");

    expect(await page.evaluate(() => (window as { __e2eSameDocument?: boolean }).__e2eSameDocument)).toBe(true);
    const now = new URL(page.url());
    expect(Object.fromEntries(now.searchParams)).toEqual({
      embedded: "1",
      host: url.searchParams.get("host"),
      shop: TEST_SHOP,
    });
    // Still the embedded admin: Shopify's menu, not the standalone one.
    await expect(page.locator("ui-nav-menu a").count()).resolves.toBeGreaterThan(5);
    expect(errors.unexpected()).toEqual([]);
  });
});
