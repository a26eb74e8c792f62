import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { connectShopToFake, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A Canadian affiliate is paid in CAD (ADR 052), in a real Chromium against
// the fake PayPal (Prism checks the request against PayPal's OpenAPI file):
// the merchant allows CAD, the affiliate picks it and sees the payout wait
// for a rate, the merchant enters one, pays by PayPal, and the PayPal item
// is in CAD at the stored rate, shown on both sides.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "3600" });

const chromiumPath = findChromium();
const EMAIL = "owner@maple-gear.example";
const SHOP = "maple-gear.myshopify.com";
const AFFILIATE_PASSWORD = "affiliate pass phrase";

describe.skipIf(skipWithoutChromium(chromiumPath))("payouts in the affiliate's currency in Chromium", () => {
  const paypal = usePaypal();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  async function affiliateSession() {
    const affiliate = await browser.newSession(server.url(""));
    await affiliate.page.goto("/portal/maple-gear/login");
    await affiliate.page.locator('[name="email"]').fill("lea@aff.example");
    await affiliate.page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await affiliate.page.getByRole("button", { name: "Log in" }).click();
    await affiliate.page.waitForURL("**/account");
    await affiliate.page.goto("/account/payouts");
    return affiliate;
  }

  async function settings(page: Page) {
    await page.goto("/admin/settings/payment");
    await waitForHydration(page);
  }

  it("a Canadian affiliate picks CAD; the PayPal item is in CAD at the stored rate", async () => {
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Maple Gear", url: `https://${SHOP}`, adminEmail: EMAIL, pricingPlan: "growth" },
    });
    await buildUser(shop.id, { email: EMAIL });
    await connectShopToFake(shop.id);
    const campaign = await buildCampaign(shop.id);
    const lea = await buildAffiliate(shop.id, campaign.id, {
      email: "lea@aff.example",
      firstName: "Léa",
      lastName: "Tremblay",
      referralCode: "LEA",
      paypalEmail: "lea-pay@aff.example",
      password: AFFILIATE_PASSWORD,
    });
    const order = await buildOrder(shop.id, {
      name: "#4001",
      affiliateId: lea.id,
      placedAt: new Date(Date.now() - 60_000),
    });
    await buildCommission(shop.id, order.id, lea.id, {
      amount: 2_500,
      status: "approved",
      explanation: "10% of #4001",
    });
    await gatherPendingPayouts(shop.id);

    // The merchant allows CAD.
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL, TEST_PASSWORD);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await settings(page);
    await page.screenshot({ path: screenshotPath("payout-currency-settings-empty"), fullPage: true });
    await page.getByText("No rates entered yet.").waitFor();
    // PayPal's 23 other currencies sit in a grid a few columns wide, not one long column.
    const grid = page.locator("#payout-currencies");
    expect(await grid.getByRole("checkbox").count()).toBe(23);
    const rowOf = async (code: string) => (await grid.getByLabel(code, { exact: true }).boundingBox())!.y;
    expect(await rowOf("BRL")).toBe(await rowOf("AUD"));
    expect((await grid.boundingBox())!.height).toBeLessThan(240);
    await page.getByLabel("CAD", { exact: true }).check();
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Save successful").waitFor();
    expect(JSON.parse((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).payment).toMatchObject({
      payoutCurrencies: ["CAD"],
    });

    // The affiliate picks CAD, and sees the payout wait for a rate. A value the page did not
    // offer (a tampered form) comes back on the page under the field, nothing saved.
    const affiliate = await affiliateSession();
    await affiliate.page.locator('select[name="payoutCurrency"]').evaluate((select) => {
      (select as HTMLSelectElement).add(new Option("GBP", "GBP"));
    });
    await affiliate.page.locator('select[name="payoutCurrency"]').selectOption("GBP");
    await affiliate.page.locator("#payout-currency").getByRole("button", { name: "Save" }).click();
    await affiliate.page.locator("#field-payoutCurrencyError").getByText("Choose one of the options").waitFor();
    await affiliate.page.screenshot({ path: screenshotPath("payout-currency-account-refused"), fullPage: true });
    expect((await db.affiliate.findUniqueOrThrow({ where: { id: lea.id } })).payoutCurrency).toBeNull();
    await affiliate.page.locator('select[name="payoutCurrency"]').selectOption("CAD");
    await affiliate.page.locator("#payout-currency").getByRole("button", { name: "Save" }).click();
    await affiliate.page.waitForURL("**/account/payouts?saved=1");
    expect((await db.affiliate.findUniqueOrThrow({ where: { id: lea.id } })).payoutCurrency).toBe("CAD");
    await affiliate.page
      .locator("#rate-hold")
      .getByText("Your payout of $25.00 waits until the shop enters a current exchange rate for CAD.")
      .waitFor();
    await affiliate.page.screenshot({ path: screenshotPath("payout-currency-account-waits"), fullPage: true });

    // The merchant sees why it waits, then enters a rate (a bad one first: refused on the page).
    await page.goto("/admin/payouts");
    await waitForHydration(page);
    const hold = await db.payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
    await page.locator(`#rate-hold-${hold.id}`).getByText("Waits: no exchange rate for CAD").waitFor();
    await settings(page);
    await page.locator("#rate-value").fill("1.123456789");
    await page.locator("#rate-add").click();
    await page.getByText("Enter a number with at most 8 decimals").waitFor();
    expect(await db.exchangeRate.count()).toBe(0);
    await page.locator("#rate-value").fill("1.3521");
    await page.locator("#rate-add").click();
    await page.locator("#rate-table").getByText("1 USD = 1.3521 CAD").waitFor();
    await page.locator("#rate-table").getByText("Entered by").waitFor();
    await page.screenshot({ path: screenshotPath("payout-currency-settings"), fullPage: true });

    // Pay by PayPal: the item goes in CAD at the stored rate.
    await page.goto("/admin/payouts");
    await waitForHydration(page);
    await page.getByRole("cell", { name: /Léa Tremblay/ }).waitFor();
    await waitForTableLoaded(page);
    expect(await page.locator(`#rate-hold-${hold.id}`).count()).toBe(0);
    await page.locator("tbody").getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.getByLabel("Payment method").selectOption("paypal");
    await page.getByRole("button", { name: "Pay $25.00" }).click();
    await page.getByText("The payouts are on their way.").first().waitFor();
    await drainJobs();
    const fake = paypal.fake();
    expect(fake.violations).toEqual([]);
    const [made] = [...fake.batches.values()];
    const payout = await db.payout.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(made!.items[0]).toMatchObject({ sender_item_id: payout.id, amount: { currency: "CAD", value: "33.80" } });
    expect(payout).toMatchObject({ amount: 2_500, currency: "USD", payoutAmount: 3_380, payoutRate: "1.3521" });

    await page.goto(`/admin/payouts/${payout.id}`);
    await waitForHydration(page);
    await page.locator("#payout-converted").getByText("Pays CA$33.80 · 1 USD = 1.3521 CAD").waitFor();
    await page
      .getByText(/Rate entered by/)
      .first()
      .waitFor();
    await page.screenshot({ path: screenshotPath("payout-currency-admin-detail"), fullPage: true });
    await page.goto("/admin/payouts?status=processing");
    await waitForHydration(page);
    await page.locator(`#converted-${payout.id}`).getByText("Pays CA$33.80").waitFor();
    await page.screenshot({ path: screenshotPath("payout-currency-admin-list"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);

    await affiliate.page.goto("/account/payouts");
    await affiliate.page.getByText("CA$33.80").first().waitFor();
    await affiliate.page
      .locator(`#converted-${payout.id}`)
      .getByText(/Converted from \$25\.00/)
      .waitFor();
    await affiliate.page.screenshot({ path: screenshotPath("payout-currency-account-paid"), fullPage: true });
    // The refused currency above answered 422, as a refused form does.
    expect(affiliate.errors.unexpected(/status of 422/)).toEqual([]);
  }, 240_000);
});
