import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { upsertCollections, upsertProducts } from "~/models/portal/product-catalogue.server";
import { logIn, waitForHydration } from "../support/admin-browser";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { solidPng } from "../support/png";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The catalogue in Chromium (issue 29): a standalone merchant picks a
// product for a commission rule from a searchable list of the synced
// catalogue (no GIDs typed), and an affiliate on a 390 px phone sees the
// products with their prices and what they earn on each, under a folded
// menu and a top bar that does not wrap. Needs the built app (npm run build).

applyTestEnv();
const chromiumPath = findChromium();
const EMAIL = "merchant@example.com";
const AFFILIATE_PASSWORD = "affiliate password 1";

const image = (rgb: [number, number, number]) => `data:image/png;base64,${solidPng(8, 8, rgb).toString("base64")}`;

// 45 products: more than one page of the picker (20), titles sorted apart from their ids.
async function seedCatalogue(shopId: string) {
  await upsertProducts(shopId, [
    {
      admin_graphql_api_id: "gid://shopify/Product/101",
      title: "Trail Runner Shoes",
      handle: "trail-runner-shoes",
      image: { src: image([40, 110, 80]) },
      variants: [{ price: "139.00" }, { price: "129.00" }],
    },
    {
      admin_graphql_api_id: "gid://shopify/Product/102",
      title: "Merino Beanie",
      handle: "merino-beanie",
      image: { src: image([180, 60, 60]) },
      variants: [{ price: "39.00" }],
    },
    ...Array.from({ length: 43 }, (_, i) => ({
      admin_graphql_api_id: `gid://shopify/Product/${200 + i}`,
      title: `Camp Item ${String(i + 1).padStart(2, "0")}`,
      handle: `camp-item-${i + 1}`,
      variants: [{ price: `${10 + i}.50` }],
    })),
  ]);
  await upsertCollections(shopId, [
    { gid: "gid://shopify/Collection/9", title: "Summer", handle: "summer", imageUrl: null },
  ]);
}

async function logInAndOpen(page: Page, path: string) {
  await logIn(page, "admin", EMAIL, TEST_PASSWORD);
  await page.waitForURL((url) => url.pathname === "/admin/dashboard");
  await page.goto(path);
  await waitForHydration(page);
}

describe.skipIf(skipWithoutChromium(chromiumPath))("the catalogue in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("adds a product rule with the standalone picker: search, page, pick; the rule shows title and image", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Spring partners" });
    await seedCatalogue(shop.id);
    const { page, errors } = await browser.newSession(server.url(""));
    await logInAndOpen(page, `/admin/campaigns/${campaign.id}`);
    await page.getByRole("heading", { level: 1, name: "Spring partners" }).waitFor();

    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByRole("button", { name: "Choose product: Product" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose product" });
    await dialog.waitFor();
    // The first page, by title, with prices; more on demand.
    await dialog.getByText("Camp Item 01").waitFor();
    expect(await dialog.getByRole("button", { name: /^Choose / }).count()).toBe(20);
    await dialog.getByRole("button", { name: "Show more" }).click();
    await dialog.getByText("Camp Item 40").waitFor();
    expect(await dialog.getByRole("button", { name: /^Choose / }).count()).toBe(40);
    await page.screenshot({ path: screenshotPath("picker-products"), fullPage: false });

    // A search goes to the server, case-insensitively.
    await dialog.getByPlaceholder("Search products").fill("trail");
    await dialog.getByText("Trail Runner Shoes").waitFor();
    await expect.poll(() => dialog.getByRole("button", { name: /^Choose / }).count()).toBe(1);
    // The lowest variant's price.
    await dialog.getByText("$129.00").waitFor();
    await page.screenshot({ path: screenshotPath("picker-search"), fullPage: false });
    await dialog.getByText("Trail Runner Shoes").click();
    await dialog.waitFor({ state: "hidden" });

    // The rule shows the product, not its GID.
    await page.getByText("Trail Runner Shoes").waitFor();
    expect(await page.getByText("gid://shopify/Product/101").count()).toBe(0);
    await page.getByLabel("Commission", { exact: true }).last().fill("15");
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.getByText("Save successful").waitFor();
    const rules = await getDb().commissionRule.findMany({ where: { campaignId: campaign.id } });
    expect(rules).toMatchObject([
      {
        targetType: "product",
        targetGid: "gid://shopify/Product/101",
        targetTitle: "Trail Runner Shoes",
        commissionType: "percent",
        value: 1_500,
      },
    ]);

    // After a reload the rule still reads as the product (from the catalogue).
    await page.reload();
    await waitForHydration(page);
    await page.getByText("Trail Runner Shoes").waitFor();
    await page.getByText("$129.00").waitFor();
    await page.screenshot({ path: screenshotPath("picker-rule-saved"), fullPage: true });

    // A collection rule picks from the collections.
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Applies to").last().selectOption("collection");
    await page.getByRole("button", { name: "Choose collection: Collection" }).click();
    const collections = page.getByRole("dialog", { name: "Choose collection" });
    await collections.getByText("Summer", { exact: true }).click();
    await collections.waitFor({ state: "hidden" });
    await page.getByText("Summer", { exact: true }).waitFor();
    expect(errors.unexpected()).toEqual([]);
  });

  it("shows an affiliate the products with prices and their commission at 390 px, under a folded menu", async () => {
    const db = getDb();
    const shop = await buildShop({ domain: "the-very-long-named-outdoor-equipment-store.myshopify.com" });
    await db.shop.update({
      where: { id: shop.id },
      data: { name: "The Very Long Named Outdoor Equipment Store of the North" },
    });
    const campaign = await buildCampaign(shop.id, { name: "Main" });
    await db.campaign.update({
      where: { id: campaign.id },
      data: {
        commissionValue: 1_000,
        newCustomerValue: 1_500,
        // Socks earn nothing; shoes earn a flat amount per pair.
        rules: {
          create: [
            { targetType: "product", targetGid: "gid://shopify/Product/102", kind: "exclude" },
            {
              targetType: "product",
              targetGid: "gid://shopify/Product/101",
              commissionType: "flat_item",
              value: 1_200,
            },
          ],
        },
      },
    });
    await seedCatalogue(shop.id);
    const nora = await buildAffiliate(shop.id, campaign.id, {
      email: "nora@aff.example",
      password: AFFILIATE_PASSWORD,
    });
    // Four approved sales this month against a target of two; their commissions over the last days.
    const now = Date.now();
    for (const [i, amount] of [1_250, 4_300, 2_100, 3_875].entries()) {
      const order = await buildOrder(shop.id, { affiliateId: nora.id, status: "approved", placedAt: new Date(now) });
      await getDb().commission.update({
        where: { id: (await buildCommission(shop.id, order.id, nora.id, { amount, status: "approved" })).id },
        data: { createdAt: new Date(now - (i * 3 + 1) * 86_400_000) },
      });
    }
    const monthStart = new Date().toISOString().slice(0, 8) + "01";
    await db.bonusRule.create({
      data: {
        shopId: shop.id,
        name: "Two sales a month",
        kind: "recurring",
        metric: "sales",
        threshold: 2,
        period: "monthly",
        rewardValue: 2_500,
        startsOn: monthStart,
      },
    });

    const { context, page, errors } = await browser.newSession(server.url(""));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/portal/${shop.domain.replace(".myshopify.com", "")}/login`);
    await page.locator('[name="email"]').fill("nora@aff.example");
    await page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");

    // The top bar: the shop's name on one line, cut with an ellipsis.
    const name = page.locator(".portal-brand-name");
    const box = await name.boundingBox();
    expect(box!.height).toBeLessThan(40);
    expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // The menu is folded behind one button naming the page.
    const menu = page.getByRole("navigation", { name: "My account" });
    expect(await menu.isVisible()).toBe(false);
    // The chart has its axes: amounts up the side, days along the bottom.
    const chart = page.getByTestId("account-chart");
    expect(await chart.locator(".line-chart-y span").allTextContents()).toEqual([
      "$50.00",
      "$40.00",
      "$30.00",
      "$20.00",
      "$10.00",
      "$0.00",
    ]);
    // On a phone, three days keep their label: both ends and the middle.
    expect(await chart.locator(".line-chart-x span:visible").count()).toBe(3);
    // "4 of 2": the bar is full and says the target is reached.
    await page.getByText("4 of 2").waitFor();
    await page.getByText("Target reached").waitFor();
    const bar = page.locator(".Polaris-ProgressBar__Indicator").first();
    expect(await bar.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(
      (await page
        .locator(".Polaris-ProgressBar")
        .first()
        .evaluate((el) => el.getBoundingClientRect().width)) - 1,
    );
    await page.screenshot({ path: screenshotPath("account-dashboard-390"), fullPage: true });
    await page.getByTestId("menu-button").click();
    await menu.waitFor();
    await page.screenshot({ path: screenshotPath("account-menu-open-390"), fullPage: false });
    await menu.getByRole("link", { name: "Products" }).click();
    await page.waitForURL("**/account/products");
    expect(await page.getByRole("navigation", { name: "My account" }).isVisible()).toBe(false);

    const card = (title: string) => page.getByTestId("product").filter({ hasText: title });
    await expect(card("Trail Runner Shoes").getByTestId("product-price").textContent()).resolves.toBe("$129.00");
    await card("Trail Runner Shoes").getByText("You earn $12.00").waitFor();
    await card("Merino Beanie").getByText("No commission on this product").waitFor();
    // Campaign rate 10 %, 15 % for a new customer: Camp Item 01 costs $10.50.
    await card("Camp Item 01").getByText("You earn $1.05").waitFor();
    await card("Camp Item 01").getByText("$1.58 when the buyer is a new customer").waitFor();
    // Nothing sideways at 390 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath("account-products-390"), fullPage: false });

    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url("") });
    await card("Trail Runner Shoes").getByRole("button", { name: "Copy" }).click();
    await card("Trail Runner Shoes").getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("to=%2Fproducts%2Ftrail-runner-shoes");
    expect(errors.unexpected()).toEqual([]);
  });
});
