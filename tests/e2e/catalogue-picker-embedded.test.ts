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
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { SCOPES, shopify } from "~/shopify.server";
import { expectPage, waitForHydration } from "../support/admin-browser";
import { buildCampaign, buildShop } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The catalogue picker inside the Shopify admin (issue 29), in a real
// Chromium: embedded, "Choose product" opens Shopify's own resource picker,
// App Bridge's `shopify.resourcePicker`, not our catalogue modal
// (tests/e2e/catalogue-picker.test.ts covers that one). App Bridge cannot be
// downloaded here: its script URL serves a stand-in that adds the session
// token to the app's fetches, and the test alone defines `window.shopify`
// with the documented contract: resourcePicker({ type, action, multiple })
// resolves to the selected resources (id as a GID, title, images with
// originalSrc), or undefined when cancelled. Needs the built app.

applyTestEnv();
const chromiumPath = findChromium();
const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

declare global {
  interface Window {
    __pickerCalls?: unknown[];
    __savedToasts?: string[];
  }
}

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

describe.skipIf(skipWithoutChromium(chromiumPath))("the catalogue picker in the Shopify admin", () => {
  const browser = useBrowser(chromiumPath);
  useStoreSimulator({ scopes: SCOPES });
  useTestDatabase();
  const server = useTestServer();

  it("adds a product rule with App Bridge's resource picker, and the rule is saved", async () => {
    const shop = await buildShop({ domain: TEST_SHOP });
    await shopify().sessionStorage.storeSession(setUpValidSession({ shop: TEST_SHOP, scope: SCOPES.join(",") }));
    const campaign = await buildCampaign(shop.id, { name: "Embedded partners" });
    const launch = await setUpValidRequest(
      { type: RequestType.Admin, store: TEST_SHOP_NAME, apiKey: API_KEY, apiSecretKey: API_SECRET_KEY },
      new Request(`${APP_URL}/admin/campaigns/${campaign.id}`),
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
    // App Bridge answers with absolute image addresses (Shopify's CDN); one on the test server stands in.
    await page.addInitScript((imageUrl: string) => {
      const calls: unknown[] = [];
      const toasts: string[] = [];
      window.__pickerCalls = calls;
      window.__savedToasts = toasts;
      (window as unknown as { shopify: unknown }).shopify = {
        resourcePicker: async (options: unknown) => {
          calls.push(options);
          return [
            {
              id: "gid://shopify/Product/7001",
              title: "Alpine Tent",
              handle: "alpine-tent",
              images: [{ id: "gid://shopify/ProductImage/1", altText: "", originalSrc: imageUrl }],
              variants: [{ id: "gid://shopify/ProductVariant/70011", price: "249.00" }],
            },
          ];
        },
        toast: { show: (message: string) => (toasts.push(message), "toast-1") },
      };
    }, server.url("/favicon.svg"));

    const url = new URL(launch.url);
    await page.goto(url.pathname + url.search);
    await expectPage(page, `/admin/campaigns/${campaign.id}`, "Embedded partners");
    await waitForHydration(page);

    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByRole("button", { name: "Choose product" }).click();
    await page.getByText("Alpine Tent").waitFor();
    // Shopify's picker was asked for one product; our catalogue modal never opened.
    expect(await page.evaluate(() => window.__pickerCalls)).toEqual([
      { type: "product", action: "select", multiple: false },
    ]);
    expect(await page.getByRole("dialog", { name: "Choose product" }).count()).toBe(0);
    expect(await page.getByText("gid://shopify/Product/7001").count()).toBe(0);

    await page.getByLabel("Commission", { exact: true }).last().fill("12");
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.waitForFunction(() => (window.__savedToasts ?? []).includes("Save successful"));
    await expect
      .poll(() => getDb().commissionRule.findMany({ where: { campaignId: campaign.id } }))
      .toMatchObject([
        {
          targetType: "product",
          targetGid: "gid://shopify/Product/7001",
          targetTitle: "Alpine Tent",
          commissionType: "percent",
          value: 1_200,
        },
      ]);
    await page.screenshot({ path: screenshotPath("picker-embedded-rule-saved"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
