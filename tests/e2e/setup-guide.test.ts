import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Issue 29: the dashboard's setup guide ticks each step as the shop's data
// shows it done, links each step to its screen, and once hidden stays hidden
// for the shop (saved by a POST, not by the browser).
applyTestEnv();

const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";
const OTHER_ADMIN = "partner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("setup guide in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("ticks steps as they are done, and is hidden for the shop once dismissed", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    await buildUser(shop.id, { email: OTHER_ADMIN });
    const { page, errors } = await browser.newSession(server.url(""));
    const done = async () =>
      page
        .locator('[data-setup-step][data-done="true"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-setup-step")));

    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.getByRole("heading", { name: "Setup guide" }).waitFor();
    expect(await page.locator("#setup-progress").textContent()).toBe("0 of 6 steps done");
    expect(await done()).toEqual([]);
    await page.screenshot({ path: screenshotPath("setup-guide-new-shop"), fullPage: true });

    // A step's link opens its screen; saving Settings › Payment ticks the payout method.
    await waitForHydration(page);
    await page.getByRole("link", { name: "Open payment settings" }).click();
    await page.waitForURL("**/admin/settings/payment");
    await waitForHydration(page);
    // Save is enabled once something changed, in the page's header and below the form.
    await page.getByLabel(/^Minimum \(/).fill("25");
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Save successful").first().waitFor();
    await page.goto("/admin/dashboard");
    await page.locator("#setup-progress", { hasText: "1 of 6 steps done" }).waitFor();
    expect(await done()).toEqual(["payoutMethod"]);

    // A campaign, an approved affiliate and a referred sale.
    const campaign = await buildCampaign(shop.id, { name: "Main" });
    const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "approved" });
    // Credited by its coupon: an order says nothing about the embed.
    await buildOrder(shop.id, {
      affiliateId: affiliate.id,
      status: "pending",
      placedAt: new Date(),
      attributionSource: "coupon",
    });
    await page.reload();
    await page.locator("#setup-progress", { hasText: "4 of 6 steps done" }).waitFor();
    expect(await done()).toEqual(["campaign", "payoutMethod", "affiliateApproved", "firstSale"]);
    // The app embed reported a visit through the app proxy: its reminder goes too.
    // The reminder is a browser-only banner (its dismissal lives in the browser): it appears after hydration.
    await page.locator('[data-banner="show.appEmbed"]').waitFor();
    await getDb().click.create({
      data: {
        shopId: shop.id,
        affiliateId: affiliate.id,
        clickId: "embed-click-1",
        source: "proxy",
        landingUrl: "https://x",
      },
    });
    await page.reload();
    await page.locator("#setup-progress", { hasText: "5 of 6 steps done" }).waitFor();
    expect(await done()).toEqual(["appEmbed", "campaign", "payoutMethod", "affiliateApproved", "firstSale"]);
    // Hydrated, so a banner that were still due would be on the page by now.
    await waitForHydration(page);
    expect(await page.locator('[data-banner="show.appEmbed"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath("setup-guide-five-of-six"), fullPage: true });

    // Hidden for the shop: after a reload and for another admin in another browser.
    await waitForHydration(page);
    await page.getByRole("button", { name: "Hide guide" }).click();
    await page.getByRole("heading", { name: "Setup guide" }).waitFor({ state: "detached" });
    await page.reload();
    await page.locator("#range-caption").waitFor();
    expect(await page.getByRole("heading", { name: "Setup guide" }).count()).toBe(0);
    const settings = JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings);
    expect(settings.setupGuide.dismissedAt).toEqual(expect.any(String));
    const other = await browser.newSession(server.url(""));
    await logIn(other.page, "admin", OTHER_ADMIN);
    await expectPage(other.page, "/admin/dashboard", "Dashboard");
    await other.page.locator("#range-caption").waitFor();
    expect(await other.page.getByRole("heading", { name: "Setup guide" }).count()).toBe(0);

    // "Help docs" opens the in-app help: a section per screen, each linking to it.
    await waitForHydration(page);
    await page.getByRole("link", { name: "Help docs" }).click();
    await page.waitForURL("**/admin/help");
    await page.getByRole("heading", { name: "Payouts", exact: true }).waitFor();
    await page.getByText("Approved commissions are gathered per affiliate", { exact: false }).waitFor();
    expect(await page.getByRole("link", { name: "Open: Autotier" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Open: Settings" }).getAttribute("href")).toBe("/admin/settings");
    await page.screenshot({ path: screenshotPath("help-page"), fullPage: true });
    expect(errors.all).toEqual([]);
    expect(other.errors.all).toEqual([]);
  });
});
