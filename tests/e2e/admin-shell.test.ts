import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startupScripts } from "~/cli/compile-hints";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import {
  ERROR_SCREEN,
  expectPage,
  logIn,
  menu,
  menuLabels,
  menuLink,
  waitForHydration,
} from "../support/admin-browser";
import {
  failedResource,
  findChromium,
  screenshotPath,
  skipWithoutChromium,
  useBrowser,
  type BrowserSession,
} from "../support/browser";
import { readBuildManifest, routeOnlyFiles } from "../support/build-manifest";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The standalone admin in a real Chromium: login, the left navigation (every
// item, clicked like a user would), staff permissions, not-found, and the
// unsaved-changes prompt. Needs the built app (npm run build).

applyTestEnv();

const chromiumPath = findChromium();

// The twelve menu items in the spec's order; each page's title equals its menu label.
const ADMIN_MENU = [
  { label: "Campaigns", path: "campaigns" },
  { label: "Affiliates", path: "affiliates" },
  { label: "Sales", path: "sales" },
  { label: "Payouts", path: "payouts" },
  { label: "Portals", path: "portals" },
  { label: "Bonuses", path: "bonuses" },
  { label: "Creatives", path: "creatives" },
  { label: "Notifications", path: "mails" },
  { label: "Settings", path: "settings" },
  { label: "Referrals", path: "referrals" },
  { label: "Pricing", path: "plans" },
  { label: "Contact us", path: "contact-us" },
] as const;

const ADMIN_EMAIL = "owner@example.com";
const STAFF_EMAIL = "staff@example.com";

// A flag on the window survives client-side navigations only: if it is gone,
// the page was reloaded from the server.
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { __e2eSameDocument: true }));
}

async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { __e2eSameDocument?: boolean }).__e2eSameDocument === true);
}

describe.skipIf(skipWithoutChromium(chromiumPath))("admin shell in Chromium", () => {
  // The browser first: on CI without Chromium, its failure is the first thing reported.
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();
  const newSession = (): Promise<BrowserSession> => browser.newSession(server.url(""));

  it("logs an admin in and opens every menu item by clicking it, without an error", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await newSession();

    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    await page.screenshot({ path: screenshotPath("admin-dashboard"), fullPage: true });
    expect(await menuLabels(page)).toEqual(["Dashboard", ...ADMIN_MENU.map((item) => item.label)]);

    await markDocument(page);
    for (const item of ADMIN_MENU) {
      await menuLink(page, item.label).click();
      await expectPage(page, `/admin/${item.path}`, item.label);
      expect(await isSameDocument(page), `${item.label} should load without a full page reload`).toBe(true);
      if (item.path === "settings") await page.screenshot({ path: screenshotPath("admin-settings"), fullPage: true });
    }

    expect(errors.unexpected()).toEqual([]);
  });

  it("hydrates a list without restyling it from the root: what Polaris writes on <html> and <body> is in the server's HTML", async () => {
    // Each write there (theme class, body colours, custom properties) made
    // Chromium restyle and lay out the whole page during hydration.
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id);
    await buildAffiliate(shop.id, campaign.id);
    const { page, errors } = await newSession();
    await logIn(page, "admin", ADMIN_EMAIL);
    // Read when the parser is done, before the module scripts run.
    await page.addInitScript(() => {
      const read = () => ({
        rootClass: [...document.documentElement.classList].sort(),
        rootStyle: [...document.documentElement.style]
          .map((p) => `${p}: ${document.documentElement.style.getPropertyValue(p)}`)
          .sort(),
        bodyStyle: [...document.body.style].map((p) => `${p}: ${document.body.style.getPropertyValue(p)}`).sort(),
      });
      document.addEventListener("readystatechange", () => {
        if (document.readyState === "interactive")
          Object.assign(window, { __e2eServerRoot: read(), __e2eReadRoot: read });
      });
    });
    await page.goto("/admin/affiliates");
    await waitForHydration(page);
    // The selection column's width is written on a timer after mounting.
    await page.waitForTimeout(300);
    const { before, after } = await page.evaluate(() => {
      const w = window as unknown as { __e2eServerRoot: unknown; __e2eReadRoot: () => unknown };
      return { before: w.__e2eServerRoot, after: w.__e2eReadRoot() };
    });
    expect(after).toEqual(before);
    expect(before).toMatchObject({
      rootClass: ["p-theme-light"],
      rootStyle: expect.arrayContaining(["--pc-checkbox-offset: 38px", "--pc-frame-offset: 0px"]),
    });
    expect(errors.unexpected()).toEqual([]);
  });

  it("serves the scripts every page starts with marked for eager compilation, and a route's own chunks not", async () => {
    // Without the mark, a first click compiled what it ran (the Pay dialog's
    // Polaris components) on the main thread while the person waited.
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await newSession();
    await logIn(page, "admin", ADMIN_EMAIL);
    await page.goto("/admin/payouts");
    await waitForHydration(page);
    const manifest = readBuildManifest();
    const startup = startupScripts(manifest);
    const payouts = Object.keys(manifest.routes).find((id) => id.endsWith("payouts._index"))!;
    const routeOnly = [...routeOnlyFiles(manifest, payouts)];
    const firstLine = async (url: string) => (await (await page.request.get(url)).text()).split("\n", 1)[0];
    expect(routeOnly.length).toBeGreaterThan(0);
    for (const url of startup) expect(await firstLine(url), url).toBe("//# allFunctionsCalledOnLoad");
    for (const url of routeOnly) expect(await firstLine(url), url).not.toBe("//# allFunctionsCalledOnLoad");
    expect(errors.unexpected()).toEqual([]);
  });

  it("shows staff only their permitted items and refuses the rest with the 403 page", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: STAFF_EMAIL, permissions: ["campaigns", "affiliates"] });
    const { page, errors } = await newSession();

    await logIn(page, "staff", STAFF_EMAIL);
    await expectPage(page, "/staff/dashboard", "Dashboard");
    // Contact us is open to everyone; Sales, Pricing and the rest are not permitted.
    expect(await menuLabels(page)).toEqual(["Dashboard", "Campaigns", "Affiliates", "Contact us"]);
    await expect(menuLink(page, "Sales").count()).resolves.toBe(0);
    await expect(menuLink(page, "Pricing").count()).resolves.toBe(0);

    await waitForHydration(page);
    await menuLink(page, "Affiliates").click();
    await expectPage(page, "/staff/affiliates", "Affiliates");

    const forbidden = page.getByText("You don't have permission to view this page", { exact: true });
    for (const path of ["/admin/settings", "/staff/sales"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      expect(new URL(page.url()).pathname, path).toBe(path);
      await forbidden.waitFor();
      await expect(page.getByText(ERROR_SCREEN).count(), path).resolves.toBe(0);
    }

    // Chrome logs every 403 document as a failed resource; nothing else may go wrong.
    expect(errors.unexpected(failedResource(403))).toEqual([]);
  });

  it("sends an unknown admin URL to the not-found page, without the menu", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await newSession();
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");

    const response = await page.goto("/admin/no/such/page");
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/admin/not-found");
    await page.getByText("This page does not exist", { exact: true }).waitFor();
    await expect(menu(page).count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Campaigns", exact: true }).count()).resolves.toBe(0);

    expect(errors.unexpected()).toEqual([]);
  });

  it("asks before leaving settings with unsaved changes, and stays or leaves as told", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { page, errors } = await newSession();
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");

    await page.goto("/admin/settings/general");
    await expectPage(page, "/admin/settings/general", "General");
    await waitForHydration(page);
    const moneyFormat = page.getByLabel("Money format", { exact: true });
    const changed = (await moneyFormat.inputValue()) === "EUR {{amount}}" ? "{{amount}} EUR" : "EUR {{amount}}";
    await moneyFormat.fill(changed);

    const prompt = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
    await menuLink(page, "Campaigns").click();
    await prompt.waitFor();
    await prompt.getByRole("button", { name: "Stay", exact: true }).click();
    await prompt.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/admin/settings/general");
    await expect(moneyFormat.inputValue()).resolves.toBe(changed);

    await menuLink(page, "Campaigns").click();
    await prompt.waitFor();
    await prompt.getByRole("button", { name: "Leave page", exact: true }).click();
    await expectPage(page, "/admin/campaigns", "Campaigns");
    await expect(prompt.count()).resolves.toBe(0);

    expect(errors.unexpected()).toEqual([]);
  });

  it("keeps a wrong password on the login page with a clear message and no session", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const { context, page, errors } = await newSession();

    await logIn(page, "admin", ADMIN_EMAIL, "wrong password");
    const message = page.getByTestId("login-error");
    await message.waitFor();
    await expect(message.innerText()).resolves.toBe("Incorrect e-mail or password.");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("__merchant_session");

    // The login action answers 401, which Chrome logs as a failed resource.
    expect(errors.unexpected(failedResource(401))).toEqual([]);
  });
});
