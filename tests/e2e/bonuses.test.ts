import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { clickUntil, expectPage, logIn, menuLink, waitForHydration } from "../support/admin-browser";
import { buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A merchant creates a monthly bonus in Chromium; the affiliate logs in to
// the portal and sees their progress toward it on the dashboard.
applyTestEnv();

const chromiumPath = findChromium();
const ADMIN_EMAIL = "owner@example.com";
const PASSWORD = "affiliate password 1";

describe.skipIf(skipWithoutChromium(chromiumPath))("bonuses in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("creates a bonus, and the affiliate sees their progress", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Main", status: "active" });
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "nora@aff.example" });
    await getDb().affiliate.update({
      where: { id: affiliate.id },
      data: { passwordHash: await hashPassword(PASSWORD) },
    });
    await buildOrder(shop.id, { affiliateId: affiliate.id, status: "approved", placedAt: new Date() });

    const admin = await browser.newSession(server.url(""));
    await logIn(admin.page, "admin", ADMIN_EMAIL);
    await expectPage(admin.page, "/admin/dashboard", "Dashboard");
    await waitForHydration(admin.page);
    await menuLink(admin.page, "Bonuses").click();
    await expectPage(admin.page, "/admin/bonuses", "Bonuses");
    await admin.page.getByText("No bonuses yet").waitFor();
    await admin.page.getByRole("link", { name: "Create bonus" }).first().click();
    await admin.page.waitForURL("**/admin/bonuses/new");
    await waitForHydration(admin.page);
    await admin.page.getByLabel("Name").fill("Two sales this month");
    await admin.page.getByLabel("Threshold").fill("2");
    await admin.page.getByLabel("Reward", { exact: true }).fill("25");
    await admin.page.screenshot({ path: screenshotPath("bonus-new"), fullPage: true });
    await admin.page.getByRole("button", { name: "Save" }).first().click();
    await admin.page.waitForURL(/\/admin\/bonuses\/[^/]+\?created=1$/);
    await admin.page.getByText("Bonus lines", { exact: true }).waitFor();
    await admin.page.screenshot({ path: screenshotPath("bonus-detail"), fullPage: true });
    const rule = await getDb().bonusRule.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(rule).toMatchObject({ name: "Two sales this month", threshold: 2, rewardValue: 2_500, period: "monthly" });
    await admin.page.goto("/admin/bonuses");
    await admin.page.getByRole("row", { name: /Two sales this month/ }).waitFor();
    await admin.page.screenshot({ path: screenshotPath("bonus-list"), fullPage: true });

    const portal = await browser.newSession(server.url(""));
    const handle = shop.domain.replace(".myshopify.com", "");
    await portal.page.goto(`/portal/${handle}/login`);
    await portal.page.locator('[name="email"]').fill("nora@aff.example");
    await portal.page.locator('[name="password"]').fill(PASSWORD);
    await portal.page.getByRole("button", { name: "Log in" }).click();
    await portal.page.waitForURL("**/account");
    await portal.page.getByRole("heading", { name: "Your bonuses" }).waitFor();
    expect(await portal.page.locator(`#bonus-progress-${rule.id}`).textContent()).toBe("1 of 2");
    await portal.page.screenshot({ path: screenshotPath("bonus-affiliate-progress"), fullPage: true });
    expect(admin.errors.all).toEqual([]);
    expect(portal.errors.all).toEqual([]);
  });

  it("shows the auto-tier ladder and the network tree, opening a member's recruits on demand", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const bronze = await buildCampaign(shop.id, { name: "Bronze", status: "active" });
    const gold = await buildCampaign(shop.id, { name: "Gold", status: "active" });
    await getDb().campaignLevel.create({ data: { campaignId: bronze.id, level: 2, rate: 300 } });
    const top = await buildAffiliate(shop.id, bronze.id, { email: "top@aff.example" });
    const recruit = await buildAffiliate(shop.id, bronze.id, { email: "recruit@aff.example" });
    await getDb().affiliate.update({
      where: { id: recruit.id },
      data: { parentId: top.id, firstName: "Rita", lastName: "Recruit" },
    });
    await getDb().tierRule.createMany({
      data: [
        { shopId: shop.id, position: 1, campaignId: bronze.id, metric: "sales", threshold: 0 },
        { shopId: shop.id, position: 2, campaignId: gold.id, metric: "revenue", threshold: 100_000, windowDays: 90 },
      ],
    });

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/settings/autotier");
    await page.getByText("Tier 2", { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("settings-autotier"), fullPage: true });

    await page.goto("/admin/settings/networks");
    await waitForHydration(page);
    // Lost once under CI's load (stop 47): the click, right after hydration,
    // opened nothing. The button says "Hide recruits" once the level opens.
    await clickUntil(page.getByRole("button", { name: "Show recruits" }), () =>
      page.getByRole("button", { name: "Hide recruits" }).waitFor({ timeout: 5_000 }),
    );
    await page.getByRole("link", { name: "Rita Recruit" }).waitFor();
    // Nothing generated yet reads as money, like the amounts beside it ("0" was shown).
    await page.getByText("Generated upward: $0.00").first().waitFor();
    await page.screenshot({ path: screenshotPath("settings-networks"), fullPage: true });
    expect(errors.all).toEqual([]);
  });
});
