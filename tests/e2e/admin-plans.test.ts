import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A standalone merchant in a real Chromium: a new shop must choose a plan
// (every page leads to plans?installing=1, the menu hidden), compares monthly
// and yearly prices, chooses one (no charge), and a feature above the plan
// answers with the upgrade prompt that leads back to the plans.

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Plans in Chromium (standalone)", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("a new shop chooses a plan, then a feature above it shows the upgrade prompt", async () => {
    const shop = await buildShop({ pricingPlan: null, needSelectPlan: true });
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await expectPage(page, "/admin/plans", "Pricing");
    expect(new URL(page.url()).searchParams.get("installing")).toBe("1");
    await page.getByText("Choose a plan to start using the app.").waitFor();
    await waitForHydration(page);
    expect(await page.getByRole("navigation").count()).toBe(0);
    await page.getByText("Up to 50 affiliates").waitFor();
    await page.getByText("14-day free trial").first().waitFor();
    await page.screenshot({ path: screenshotPath("admin-plans-installing"), fullPage: true });

    // Yearly prices.
    await page.getByRole("link", { name: "Yearly" }).click();
    await page.getByText("$290.00 / year").waitFor();
    // The switch keeps the state of a shop that must still choose (spec §2/§4).
    expect(new URL(page.url()).searchParams.get("installing")).toBe("1");
    expect(new URL(page.url()).searchParams.get("interval")).toBe("yearly");
    await page.getByText("Choose a plan to start using the app.").waitFor();
    expect(await page.getByRole("navigation").count()).toBe(0);
    await page.getByRole("link", { name: "Monthly" }).click();
    await page.getByText("$29.00 / month").waitFor();
    expect(new URL(page.url()).searchParams.get("installing")).toBe("1");
    await page.getByRole("link", { name: "Yearly" }).click();
    await page.getByText("$290.00 / year").waitFor();
    await page.screenshot({ path: screenshotPath("admin-plans-yearly"), fullPage: true });

    await page.getByRole("button", { name: "Choose the Free plan" }).click();
    await expectPage(page, "/admin/plans/activate", "Activate plan");
    await page.getByRole("button", { name: "Activate" }).click();
    await expectPage(page, "/admin/dashboard", "Dashboard");
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({
      pricingPlan: "free",
      needSelectPlan: null,
    });

    // Refer-a-friend is above the free plan: the upgrade prompt, not a crash.
    await page.goto("/admin/referrals");
    await page.getByText("Refer a friend is not in your plan").waitFor();
    await page.getByText("Refer a friend comes with the Growth plan.", { exact: false }).waitFor();
    await page.screenshot({ path: screenshotPath("admin-plans-upgrade-prompt"), fullPage: true });
    await page.getByRole("link", { name: "Compare plans" }).click();
    await expectPage(page, "/admin/plans", "Pricing");
    await page.getByText("Refer a friend needs a higher plan.").waitFor();
    await waitForHydration(page);
    // The interval switch keeps why the merchant is here.
    await page.getByRole("link", { name: "Yearly" }).click();
    await page.getByText("$290.00 / year").waitFor();
    expect(new URL(page.url()).searchParams.get("upgrade")).toBe("referAFriend");
    await page.getByText("Refer a friend needs a higher plan.").waitFor();

    // Upgrading (standalone: no charge) opens the feature.
    await page.getByRole("button", { name: "Choose the Growth plan" }).click();
    await expectPage(page, "/admin/plans/activate", "Activate plan");
    await page.getByRole("button", { name: "Activate" }).click();
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await page.goto("/admin/referrals");
    await page.waitForURL((url) => url.pathname === "/admin/referrals");
    expect(await page.getByText("is not in your plan").count()).toBe(0);
    // The upgrade prompt is a 403 page: the browser logs that status, nothing else may fail.
    expect(errors.unexpected(/status of 403 \(Forbidden\)/)).toEqual([]);
  });
});
