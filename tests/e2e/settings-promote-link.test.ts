import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Settings > Promote link in a real Chromium: a field error first (nothing
// saved), then a save, a reload that shows the saved values, and the
// affiliate's /account/links built from them.

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";
const AFFILIATE_PASSWORD = "affiliate pass 123";

async function field(page: Page, label: string) {
  return page.getByLabel(label, { exact: true });
}

describe.skipIf(skipWithoutChromium(chromiumPath))("Settings > Promote link in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("saves the link settings and the affiliate's links use them", async () => {
    const db = getDb();
    const shop = await buildShop({ domain: "promo-gear.myshopify.com" });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "lena@aff.example", referralCode: "LENA" });
    await db.affiliate.update({
      where: { id: affiliate.id },
      data: { passwordHash: await hashPassword(AFFILIATE_PASSWORD) },
    });

    const admin = await browser.newSession(server.url(""));
    const page = admin.page;
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/settings/promote-link");
    await expectPage(page, "/admin/settings/promote-link", "Promote link");
    await waitForHydration(page);
    const save = page.getByRole("button", { name: "Save" }).first();
    expect(await save.isDisabled()).toBe(true);

    await (await field(page, "Referral link parameter")).fill("partner");
    await page.getByText("A product", { exact: true }).click();
    await (await field(page, "utm_source")).fill("our affiliates");
    await save.click();
    // Client-side checks: both messages shown, nothing saved.
    await page.getByText("Enter the handle of the page or product").waitFor();
    await page.getByText("Use letters, digits, dot, dash, underscore or plus, no spaces").waitFor();
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).referralParam).toBe("ref");

    await (await field(page, "Handle")).fill("alpine-jacket");
    await (await field(page, "utm_source")).fill("affiliates");
    await (await field(page, "utm_campaign")).fill("spring");
    await page.getByText("Direct store link with the referral parameter", { exact: true }).click();
    await page
      .getByTestId("promote-link-example")
      .getByText(
        "https://promo-gear.myshopify.com/products/alpine-jacket?utm_source=affiliates&utm_campaign=spring&partner=CODE",
      )
      .waitFor();
    await save.click();
    await page.getByText("Save successful").waitFor();
    await page.screenshot({ path: screenshotPath("settings-promote-link"), fullPage: true });
    expect(await save.isDisabled()).toBe(true);

    await page.reload();
    await waitForHydration(page);
    expect(await (await field(page, "Referral link parameter")).inputValue()).toBe("partner");
    expect(await (await field(page, "Handle")).inputValue()).toBe("alpine-jacket");
    expect(await page.getByLabel("Direct store link with the referral parameter").isChecked()).toBe(true);
    expect(admin.errors.all).toEqual([]);

    // The affiliate's links page.
    const aff = await browser.newSession(server.url(""));
    await aff.page.goto("/portal/promo-gear/login");
    await aff.page.locator('[name="email"]').fill("lena@aff.example");
    await aff.page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await aff.page.getByRole("button", { name: "Log in" }).click();
    await aff.page.waitForURL("**/account");
    await aff.page.goto("/account/links");
    expect(await aff.page.getByTestId("referral-link").inputValue()).toBe(
      "https://promo-gear.myshopify.com/products/alpine-jacket?utm_source=affiliates&utm_campaign=spring&partner=LENA",
    );
    expect(await aff.page.getByTestId("store-link").count()).toBe(0);
    await aff.page.locator('[name="page"]').fill("/pages/about");
    await aff.page.getByRole("button", { name: "Create link" }).click();
    await aff.page.waitForURL(
      (url) => url.pathname === "/account/links" && url.searchParams.get("page") === "/pages/about",
    );
    const built = new URL(await aff.page.getByTestId("built-link").inputValue());
    expect(built.pathname).toBe("/r/promo-gear/LENA");
    expect(built.searchParams.get("to")).toBe("/pages/about?utm_source=affiliates&utm_campaign=spring");
    await aff.page.screenshot({ path: screenshotPath("settings-promote-link-account-links"), fullPage: true });

    // The short link follows the same rule: the click lands with the parameter and the UTM values.
    const click = await fetch(server.url(built.pathname + built.search), { redirect: "manual" });
    expect(click.status).toBe(302);
    const to = new URL(click.headers.get("location")!);
    expect(to.pathname).toBe("/pages/about");
    expect(to.searchParams.get("partner")).toBe("LENA");
    expect(to.searchParams.get("utm_source")).toBe("affiliates");
  });
});
