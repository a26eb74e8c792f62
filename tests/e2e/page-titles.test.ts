import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { buildShop, buildUser } from "../support/builders";
import { expectPage, logIn, menuLink, waitForHydration } from "../support/admin-browser";
import { failedResource, findChromium, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Document titles and the <main> landmark where the pseudo-locale sweep
// (tests/e2e/pseudo-locale.test.ts, every screen of a shop) does not go: the
// pages without a shop, the error pages, and a title following a client-side
// navigation. Needs the built app.

applyTestEnv();
const chromiumPath = findChromium();
const APP = "Affiliate & Referral";

async function titleAndMains(page: Page) {
  return page.evaluate(() => ({
    title: document.title,
    mains: document.querySelectorAll("main, [role=main]").length,
  }));
}

describe.skipIf(skipWithoutChromium(chromiumPath))("titles and landmarks in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it.each([
    ["/login", 200, `Log in to your affiliate program · ${APP}`],
    ["/staff/login", 200, `Staff log in · ${APP}`],
    ["/staff/get-password", 200, `Set your password · ${APP}`],
    ["/account/login-needed", 401, "Please log in"],
    ["/no/such/page", 404, `Page not found · ${APP}`],
  ])("%s answers %i titled %s, with one <main>", async (path, status, title) => {
    const { page, errors } = await browser.newSession(server.url(""));
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(await titleAndMains(page)).toEqual({ title, mains: 1 });
    expect(errors.unexpected(failedResource(status))).toEqual([]);
  });

  it("changes the title with the screen on a client-side navigation", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@titles.example" });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", "owner@titles.example");
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    expect(await titleAndMains(page)).toEqual({ title: `Dashboard · ${APP}`, mains: 1 });

    await page.evaluate(() => Object.assign(window, { __e2eSameDocument: true }));
    await menuLink(page, "Payouts").click();
    await expectPage(page, "/admin/payouts", "Payouts");
    await page.waitForFunction((expected) => document.title === expected, `Payouts · ${APP}`);
    await menuLink(page, "Settings").click();
    await expectPage(page, "/admin/settings", "Settings");
    await page.waitForFunction((expected) => document.title === expected, `Settings · ${APP}`);
    expect(await page.evaluate(() => (window as { __e2eSameDocument?: boolean }).__e2eSameDocument)).toBe(true);
    expect((await titleAndMains(page)).mains).toBe(1);
    expect(errors.unexpected()).toEqual([]);
  });
});
