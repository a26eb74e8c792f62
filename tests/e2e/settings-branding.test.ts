import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { solidPng } from "../support/png";

// Settings > Branding in a real Chromium: a bad colour is refused on the
// form, then a brand colour, background, font and an uploaded logo are saved,
// survive a reload and show on the public portal page (screenshots before
// and after).

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Settings > Branding in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("saves colours, font and logo, and the portal shows them", async () => {
    const shop = await buildShop({ domain: "brand-gear.myshopify.com" });
    await buildUser(shop.id, { email: EMAIL });
    const logoFile = path.join(os.tmpdir(), `brand-logo-${process.pid}.png`);
    writeFileSync(logoFile, solidPng(120, 36, [192, 57, 43]));

    const visitor = await browser.newSession(server.url(""));
    await visitor.page.goto("/portal/brand-gear/");
    await visitor.page.screenshot({ path: screenshotPath("branding-portal-before"), fullPage: true });
    const brandBefore = await visitor.page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--p-color-bg-fill-brand").trim(),
    );

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/settings/branding");
    await expectPage(page, "/admin/settings/branding", "Branding");
    await waitForHydration(page);
    const save = page.getByRole("button", { name: "Save" }).first();

    await page.getByLabel("Brand colour (buttons, top bar)").fill("red");
    await save.click();
    await page.getByText("Enter a colour as # and six hex digits, e.g. #1f3a93").waitFor();

    await page.getByLabel("Brand colour (buttons, top bar)").fill("#c0392b");
    await page.getByLabel("Background colour").fill("#fdf6ec");
    await page.getByLabel("Font").selectOption("serif");
    await page.getByTestId("upload-logo").locator('input[type="file"]').setInputFiles(logoFile);
    await page.getByTestId("branding-logo").waitFor();
    await save.click();
    await page.getByText("Save successful").waitFor();
    await page.screenshot({ path: screenshotPath("settings-branding"), fullPage: true });

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel("Brand colour (buttons, top bar)").inputValue()).toBe("#c0392b");
    expect(await page.getByLabel("Font").inputValue()).toBe("serif");
    const logo = await page.getByTestId("branding-logo").getAttribute("src");
    expect(logo).toMatch(new RegExp(`^/portal-assets/${shop.id}/[0-9a-f]{8}-brand-logo-\\d+\\.png$`));
    expect(errors.all).toEqual([]);
    const stored = JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings);
    expect(stored.branding).toMatchObject({ primary_color: "#c0392b", font: "serif", logo });

    // The public portal page: brand colour on the sign-up button, background, font and logo.
    await visitor.page.goto("/portal/brand-gear/");
    const look = await visitor.page.evaluate(() => {
      const button = document.querySelector(
        ".portal-topbar .Polaris-Button--variantPrimary, .portal-topbar a.Polaris-Button",
      );
      const logoImg = document.querySelector<HTMLImageElement>("[data-testid=portal-logo]");
      return {
        brand: getComputedStyle(document.documentElement).getPropertyValue("--p-color-bg-fill-brand").trim(),
        button: button ? getComputedStyle(button).backgroundColor : null,
        body: getComputedStyle(document.body).backgroundColor,
        font: getComputedStyle(document.body).fontFamily,
        logoLoaded: !!logoImg && logoImg.complete && logoImg.naturalWidth === 120,
      };
    });
    expect(brandBefore).not.toBe("#c0392b");
    expect(look.brand).toBe("#c0392b");
    expect(look.button).toBe("rgb(192, 57, 43)");
    expect(look.body).toBe("rgb(253, 246, 236)");
    expect(look.font).toContain("serif");
    expect(look.logoLoaded).toBe(true);
    await visitor.page.screenshot({ path: screenshotPath("branding-portal-after"), fullPage: true });
  });
});
