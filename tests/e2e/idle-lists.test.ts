import { describe, expect, it } from "vitest";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { endlessAnimations } from "../support/animations";
import { findChromium, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A list at rest draws nothing: an endless animation on a hidden element
// (IndexTable's loading panel keeps two spinners in the page) made the
// renderer produce a frame every 16 ms for as long as the list was open,
// about half of the main thread at 4× CPU, and every click waited behind it
// (issue 33). Needs the built app.

applyTestEnv();
const chromiumPath = findChromium();

describe.skipIf(skipWithoutChromium(chromiumPath))("lists at rest in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("runs no endless animation on an admin list while nothing loads", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@idle.example" });
    const campaign = await buildCampaign(shop.id);
    await buildAffiliate(shop.id, campaign.id);
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", "owner@idle.example");
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/affiliates");
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await waitForHydration(page);
    // The table is there, with its (hidden) loading panel.
    expect(await page.locator(".Polaris-IndexTable__LoadingPanel .Polaris-Spinner").count()).toBeGreaterThan(0);
    expect(await endlessAnimations(page)).toEqual([]);
    expect(errors.unexpected()).toEqual([]);
  });
});
