import { describe, expect, it } from "vitest";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A merchant in a real Chromium opens Settings › Shopify Flow from the
// settings list and reads what the app offers Flow, in German as well.

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "flow-owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Settings › Shopify Flow in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("lists the triggers and actions with a sentence each, and says a standalone shop is not connected", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");

    await page.goto("/admin/settings");
    await waitForHydration(page);
    await page.getByText("Triggers and actions this app offers Shopify Flow").click();
    await expectPage(page, "/admin/settings/flow", "Shopify Flow");
    await page.getByText("Not connected", { exact: true }).waitFor();
    await page.getByText("Tag affiliate", { exact: true }).waitFor();
    await page.getByText("A payout to an affiliate failed, with the reason the payout provider gave.").waitFor();
    expect(await page.locator("[data-flow-handle]").count()).toBe(12);
    await page.screenshot({ path: screenshotPath("flow-settings"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
