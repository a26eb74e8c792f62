import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { solidPng } from "../support/png";

// A merchant lists the program in Settings > Marketplace (field error first,
// then 'Save successful', with a logo uploaded through the storage); the listing shows on the public marketplace, is
// found by search and category, and "Apply" opens the shop's sign-up, where
// the applicant is created pending although the campaign approves by itself.

applyTestEnv();

const chromiumPath = findChromium();

describe.skipIf(skipWithoutChromium(chromiumPath))("marketplace in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("lists the offer, shows it on /marketplace, and applying lands in a pending sign-up", async () => {
    const shop = await buildShop({ domain: "summit-gear.myshopify.com" });
    await buildUser(shop.id, { email: "owner@example.com" });
    const campaign = await buildCampaign(shop.id);
    await getDb().campaign.update({ where: { id: campaign.id }, data: { autoApproveAffiliates: true } });
    const other = await buildShop({ domain: "bloom.myshopify.com" });
    await buildCampaign(other.id);
    await getDb().marketplaceListing.create({
      data: {
        shopId: other.id,
        listed: true,
        title: "Bloom cosmetics",
        description: "Vegan skin care",
        commissionSummary: "8% per order",
        category: "beauty",
      },
    });
    const { page, errors } = await browser.newSession(server.url(""));

    await logIn(page, "admin", "owner@example.com");
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/settings/marketplace");
    await expectPage(page, "/admin/settings/marketplace", "Marketplace");
    await waitForHydration(page);
    await page.getByLabel("List my program on the marketplace").check();
    await page.getByLabel("Program name").fill("Summit climbing gear");
    await page.getByLabel("Description").fill("Ropes, harnesses and shoes for climbers.");
    await page.getByLabel("Category").selectOption("other");
    await page.getByRole("button", { name: "Save" }).first().click();
    // The commission summary is required for a listed offer: a field error, nothing saved.
    await page.getByText("Fill in this field").waitFor();
    expect(await getDb().marketplaceListing.count({ where: { shopId: shop.id } })).toBe(0);
    await page.getByLabel("Commission summary").fill("15% on every sale");
    const logoFile = path.join(os.tmpdir(), `market-logo-${process.pid}.png`);
    writeFileSync(logoFile, solidPng(64, 64, [142, 68, 173]));
    await page.getByTestId("upload-marketplace-logo").locator('input[type="file"]').setInputFiles(logoFile);
    await page.getByTestId("marketplace-logo").waitFor();
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Save successful").waitFor();
    await page.screenshot({ path: screenshotPath("admin-settings-marketplace"), fullPage: true });

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel("Commission summary").inputValue()).toBe("15% on every sale");
    const logo = await page.getByTestId("marketplace-logo").getAttribute("src");
    expect(logo).toMatch(new RegExp(`^/portal-assets/${shop.id}/[0-9a-f]{8}-market-logo-\\d+\\.png$`));

    await page.goto("/marketplace");
    await page.getByRole("heading", { name: "Summit climbing gear" }).waitFor();
    await page.getByRole("heading", { name: "Bloom cosmetics" }).waitFor();
    // The uploaded logo on the public listing, loaded.
    const shown = page.locator(`img[src="${logo}"]`);
    await shown.waitFor();
    expect(await shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 64)).toBe(true);
    await page.screenshot({ path: screenshotPath("marketplace"), fullPage: true });
    // Public pages are server-rendered only (root.tsx): the search is a plain GET form.
    await page.getByLabel("Search").fill("climb");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "climb");
    await page.getByRole("heading", { name: "Summit climbing gear" }).waitFor();
    expect(await page.getByRole("heading", { name: "Bloom cosmetics" }).count()).toBe(0);

    await page.getByRole("link", { name: "Apply" }).click();
    await page.waitForURL((url) => url.pathname === "/portal/summit-gear/signup");
    await page.locator('[name="firstName"]').fill("Nora");
    await page.locator('[name="lastName"]').fill("Quinn");
    await page.locator('[name="email"]').fill("nora@aff.example");
    await page.locator('[name="password"]').fill("affiliate password 1");
    await page.locator('form[method="post"] button[type="submit"]').click();
    await expect
      .poll(async () => (await getDb().affiliate.findFirst({ where: { email: "nora@aff.example" } }))?.status)
      .toBe("pending");
    await page.screenshot({ path: screenshotPath("marketplace-applied"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
