import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { solidPng } from "../support/png";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Settings › Marketings in a real Chromium: a campaign's coupon settings and
// the share texts and image are saved, survive a reload, and the affiliate's
// links page shows share buttons with the texts filled in and the image.

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";
const AFFILIATE_PASSWORD = "affiliate pass 123";

describe.skipIf(skipWithoutChromium(chromiumPath))("Settings › Marketings in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("saves coupon and share settings, and the affiliate shares with them", async () => {
    const shop = await buildShop({ domain: "share-gear.myshopify.com" });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await getDb().campaign.create({
      data: { shopId: shop.id, name: "Main", status: "active", isDefault: true },
    });
    await buildAffiliate(shop.id, campaign.id, {
      email: "mia@aff.example",
      referralCode: "MIA",
      password: AFFILIATE_PASSWORD,
    });
    const imageFile = path.join(os.tmpdir(), `share-image-${process.pid}.png`);
    writeFileSync(imageFile, solidPng(160, 90, [39, 174, 96]));

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/settings/marketings");
    await expectPage(page, "/admin/settings/marketings", "Marketings");
    await waitForHydration(page);

    // Coupon settings: a bad value is refused on the form, then saved.
    await page.getByLabel("Give affiliates coupon codes on this campaign").check({ force: true });
    await page.getByLabel("Discount", { exact: true }).fill("ten");
    await page.getByRole("button", { name: "Save coupon settings" }).click();
    await page.getByText("Enter a number such as 12.5").waitFor();
    await page.getByLabel("Discount", { exact: true }).fill("15");
    await page.getByLabel("Code prefix").fill("vip-");
    await page.getByRole("button", { name: "Save coupon settings" }).click();
    await page.getByText("Save successful").waitFor();
    expect(await getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      couponEnabled: true,
      couponDiscountValue: 1500,
      couponPrefix: "VIP-",
    });

    // Share texts and an uploaded image.
    await page.getByLabel("Text for X (Twitter)").fill("Save with {{code}}: {{link}}");
    await page.getByLabel("Text for WhatsApp").fill("Have a look {{link}}");
    await page.getByLabel("E-mail subject").fill("A gift from me");
    await page.getByLabel("Upload an image").setInputFiles(imageFile);
    await page.getByTestId("share-image").waitFor();
    await page.getByRole("button", { name: "Save share settings" }).click();
    await page.getByText("Save successful").last().waitFor();
    await page.screenshot({ path: screenshotPath("settings-marketings"), fullPage: true });

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel("Discount", { exact: true }).inputValue()).toBe("15");
    expect(await page.getByLabel("Code prefix").inputValue()).toBe("VIP-");
    expect(await page.getByLabel("Text for X (Twitter)").inputValue()).toBe("Save with {{code}}: {{link}}");
    const image = await page.getByTestId("share-image").getAttribute("src");
    expect(image).toMatch(new RegExp(`^/portal-assets/${shop.id}/`));
    expect(errors.all).toEqual([]);

    // The affiliate's links page: share buttons and the image.
    const aff = await browser.newSession(server.url(""));
    await aff.page.goto("/portal/share-gear/login");
    await aff.page.locator('[name="email"]').fill("mia@aff.example");
    await aff.page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await aff.page.getByRole("button", { name: "Log in" }).click();
    await aff.page.waitForURL("**/account");
    await aff.page.goto("/account/links");
    const link = await aff.page.getByTestId("referral-link").inputValue();
    const href = async (name: string) => (await aff.page.getByRole("link", { name }).getAttribute("href")) ?? "";
    expect(new URL(await href("Share on X")).searchParams.get("text")).toBe(`Save with MIA: ${link}`);
    expect(new URL(await href("Share on WhatsApp")).searchParams.get("text")).toBe(`Have a look ${link}`);
    expect(new URL(await href("Share on Facebook")).searchParams.get("u")).toBe(link);
    expect(await href("E-mail")).toBe(
      `mailto:?subject=${encodeURIComponent("A gift from me")}&body=${encodeURIComponent(link)}`,
    );
    const loaded = await aff.page
      .getByTestId("share-image")
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 160);
    expect(loaded).toBe(true);
    await aff.page.screenshot({ path: screenshotPath("account-links-share"), fullPage: true });
    expect(aff.errors.all).toEqual([]);
  });
});
