import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A merchant in a real Chromium: creates a campaign with two MLM levels
// through the form (meeting a field error and the unsaved-changes prompt on
// the way), then approves a pending sale on its page and two more from the
// list. Needs the built app (npm run build).

applyTestEnv();
const chromiumPath = findChromium();
const EMAIL = "merchant@example.com";

async function logInAndOpen(page: Page, path: string) {
  await logIn(page, "admin", EMAIL, TEST_PASSWORD);
  await page.waitForURL((url) => url.pathname === "/admin/dashboard");
  await page.goto(path);
  await waitForHydration(page);
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

describe.skipIf(skipWithoutChromium(chromiumPath))("campaigns and sales in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("creates a campaign with two MLM levels through the form", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logInAndOpen(page, "/admin/campaigns");
    await heading(page, "Campaigns").waitFor();
    await page.getByText("Create your first campaign").waitFor();
    await page.screenshot({ path: screenshotPath("campaigns-empty"), fullPage: true });

    await page.getByRole("link", { name: "Create campaign" }).first().click();
    await page.waitForURL((url) => url.pathname === "/admin/campaigns/new");
    await heading(page, "New campaign").waitFor();
    await page.getByLabel("Campaign name").fill("Spring partners");
    await page.getByLabel("State").selectOption("active");
    await page.getByLabel("Commission", { exact: true }).fill("12.5");
    await page.getByRole("button", { name: "Add level" }).click();
    await page.getByRole("button", { name: "Add level" }).click();
    await page.getByLabel("Level 2 rate").fill("5");
    await page.getByLabel("Level 3 rate").fill("150");
    await page.getByLabel("Level 3 is a percent of").selectOption("percent_of_commission");
    await page.getByLabel("Give affiliates coupon codes on this campaign").check();
    await page.getByLabel("Code prefix").fill("SPRING-");

    // A rate above 100 % is caught with a message on the field, and nothing is saved.
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.getByText("Use at most 100 %").waitFor();
    expect(await getDb().campaign.count()).toBe(0);
    await page.screenshot({ path: screenshotPath("campaign-field-error"), fullPage: true });

    // Leaving with unsaved changes asks first; "Stay" keeps the form as it was.
    await page.getByRole("navigation").getByRole("link", { name: "Sales", exact: true }).click();
    const prompt = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
    await prompt.waitFor();
    await prompt.getByRole("button", { name: "Stay", exact: true }).click();
    await prompt.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/admin/campaigns/new");

    await page.getByLabel("Level 3 rate").fill("2.5");
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.waitForURL((url) => /^\/admin\/campaigns\/(?!new)[\w-]+$/.test(url.pathname));
    await heading(page, "Spring partners").waitFor();
    await page.getByText("Campaign created").waitFor();
    await page.screenshot({ path: screenshotPath("campaign-created"), fullPage: true });

    const campaign = await getDb().campaign.findFirstOrThrow({
      where: { shopId: shop.id },
      include: { levels: { orderBy: { level: "asc" } } },
    });
    expect(campaign).toMatchObject({
      name: "Spring partners",
      status: "active",
      isDefault: true, // the shop's first campaign starts as its default
      commissionValue: 1250,
      couponEnabled: true,
      couponPrefix: "SPRING-",
    });
    expect(campaign.levels.map((l) => [l.level, l.basis, l.rate])).toEqual([
      [2, "percent_of_sale", 500],
      [3, "percent_of_commission", 250],
    ]);
    // What the form shows after the save is what was stored.
    await expect(page.getByLabel("Level 3 rate").inputValue()).resolves.toBe("2.5");

    await page.getByRole("link", { name: "Campaigns" }).first().click();
    await page.getByRole("cell", { name: /Spring partners/ }).waitFor();
    await page.screenshot({ path: screenshotPath("campaigns-list"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });

  it("approves a pending sale on its page, and two more from the list", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id);
    const upline = await buildAffiliate(shop.id, campaign.id, { referralCode: "CARA" });
    const anna = await buildAffiliate(shop.id, campaign.id, { referralCode: "ANNA" });
    await getDb().affiliate.update({ where: { id: anna.id }, data: { parentId: upline.id, firstName: "Anna" } });
    const sale = await buildOrder(shop.id, {
      name: "#1001",
      affiliateId: anna.id,
      attributionSource: "coupon",
      attributionReason: "Credited to Anna Affiliate (ANNA): their coupon ANNA10 was used at checkout.",
      subtotal: 40_495,
      placedAt: new Date(Date.now() - 60_000),
    });
    // Explanations as long as the webhook flow writes them for an order with product rules.
    const longExplanation =
      "10% (campaign rate) + $5.00 per item (product rule) on $404.95; $20.00 of excluded products left out; " +
      "collection rules not applied (the shop's product collections could not be read)";
    await buildCommission(shop.id, sale.id, anna.id, { amount: 4050, explanation: longExplanation });
    await buildCommission(shop.id, sale.id, upline.id, {
      level: 2,
      amount: 1215,
      explanation: "Level 2: 3% of $404.95 sale",
    });
    const others = [await buildOrder(shop.id, { name: "#1002" }), await buildOrder(shop.id, { name: "#1003" })];

    const { page, errors } = await browser.newSession(server.url(""));
    await logInAndOpen(page, "/admin/sales");
    await heading(page, "Sales").waitFor();
    await page.screenshot({ path: screenshotPath("sales-list"), fullPage: true });

    await page.getByRole("link", { name: "#1001" }).click();
    await heading(page, "#1001").waitFor();
    await page.getByText("their coupon ANNA10 was used at checkout.").waitFor();
    await page.getByText("$40.50").first().waitFor();
    await page.getByText("$12.15").first().waitFor();
    // At 1440 px the "How it was computed" column fits in its card and wraps:
    // no sideways scrolling, every explanation whole inside the card.
    await page.setViewportSize({ width: 1440, height: 900 });
    const table = page.locator(".Polaris-DataTable").first();
    const explanation = table.getByText(longExplanation, { exact: true });
    await explanation.waitFor();
    await expect
      .poll(() =>
        table.locator(".Polaris-DataTable__ScrollContainer").evaluate((el) => el.scrollWidth - el.clientWidth),
      )
      .toBe(0);
    const cardBox = (await table.boundingBox())!;
    const textBox = (await explanation.boundingBox())!;
    expect(textBox.x + textBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    expect(textBox.height).toBeGreaterThan(30); // wrapped onto more than one line
    await page.screenshot({ path: screenshotPath("sale-pending"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("Sale approved").waitFor();
    await page.getByRole("button", { name: "Approve", exact: true }).waitFor({ state: "detached" });
    await page.getByText(/^Approved: its commissions are payable/).waitFor();
    await page.screenshot({ path: screenshotPath("sale-approved"), fullPage: true });
    expect((await getDb().order.findUniqueOrThrow({ where: { id: sale.id } })).status).toBe("approved");
    expect((await getDb().commission.findMany({ where: { orderId: sale.id } })).map((c) => c.status)).toEqual([
      "approved",
      "approved",
    ]);

    // Bulk: pending tab, select every row, approve.
    await page.getByRole("link", { name: "Sales" }).first().click();
    await heading(page, "Sales").waitFor();
    await page.getByRole("tab", { name: "Pending" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "pending");
    await page.getByRole("cell", { name: "#1001" }).waitFor({ state: "detached" });
    // No force: the click must land on the checkbox, not on the table's
    // fading "Loading sales…" panel (which made this test flaky).
    await waitForTableLoaded(page);
    await page.locator("thead").getByRole("checkbox").check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("2 sales approved.").waitFor();
    await page.screenshot({ path: screenshotPath("sales-bulk-approved"), fullPage: true });
    for (const order of others) {
      expect((await getDb().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("approved");
    }
    expect(errors.unexpected(failedResource(404))).toEqual([]);
  });
});
