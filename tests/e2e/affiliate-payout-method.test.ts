import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { shopDb } from "~/db/shop-db.server";
import { savePaymentSettings } from "~/models/payouts/auto-pay.server";
import { paymentSettingsFormSchema } from "~/models/payouts/payment-settings";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildCampaign, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The affiliate's own payout method, in a real Chromium: the affiliate is
// reminded, picks bank transfer among what the merchant offers and fills in
// the merchant's fields (a wrong IBAN is refused); the merchant's Payouts
// list and payout screen show it masked (the whole value only on "show"),
// and auto-pay pays that affiliate by hand (their choice) and another, who
// chose nothing, by the shop's default, saying so. The account page is
// looked at on a desktop and at 390 px.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "own-method.myshopify.com";
const HANDLE = "own-method";
const ADMIN_EMAIL = "owner@own-method.example";
const PASSWORD = "affiliate secret words";
const IBAN = "DE89 3704 0044 0532 0130 00";

describe.skipIf(skipWithoutChromium(chromiumPath))("the affiliate's payout method in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  async function setup() {
    const db = getDb();
    const shop = await db.shop.create({
      data: {
        domain: SHOP,
        name: "Own Method",
        url: `https://${SHOP}`,
        adminEmail: ADMIN_EMAIL,
        pricingPlan: "growth",
      },
    });
    // Saved as Settings › Payment saves it: auto-pay's next run is queued.
    await savePaymentSettings(
      shopDb(db, shop.id),
      paymentSettingsFormSchema.parse({
        affiliateMethods: ["paypal", "bank"],
        bankFields: ["Account holder", "IBAN"],
        defaultMethod: "csv",
        autoPay: { mode: "every", days: 7 },
      }),
      "UTC",
    );
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    const affiliate = async (firstName: string) =>
      db.affiliate.create({
        data: {
          shopId: shop.id,
          campaignId: campaign.id,
          email: `${firstName.toLowerCase()}@aff.example`,
          firstName,
          lastName: "Tester",
          status: "approved",
          referralCode: firstName.toUpperCase(),
          passwordHash: await hashPassword(PASSWORD),
        },
      });
    const lena = await affiliate("Lena");
    const otto = await affiliate("Otto");
    for (const [i, [a, amount]] of (
      [
        [lena, 4250],
        [otto, 1800],
      ] as const
    ).entries()) {
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount, status: "approved", sourceRef: `s${i}` });
    }
    await gatherPendingPayouts(shop.id);
    return { shop, lena, otto };
  }

  async function portalLogIn(page: Page, email: string) {
    await page.goto(`/portal/${HANDLE}/login`);
    await page.locator('[name="email"]').fill(email);
    await page.locator('[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");
  }

  it("affiliate picks bank transfer → the merchant's payout shows it and auto-pay uses it", async () => {
    const { shop, lena, otto } = await setup();

    // The affiliate: reminded on every page, then chooses.
    const { page: portal, errors: portalErrors } = await browser.newSession(server.url(""));
    await portalLogIn(portal, "lena@aff.example");
    const reminder = portal.getByTestId("payout-method-reminder");
    expect(await reminder.textContent()).toBe("Choose how you want to be paid. Until then: Manual.");
    await portal.screenshot({ path: screenshotPath("account-payout-method-reminder"), fullPage: true });
    await portal.getByRole("link", { name: "Choose a payout method" }).click();
    await portal.waitForURL("**/account/payouts#payout-method");
    // The fields of the checked method only.
    await portal.locator('[name="paypalEmail"]').waitFor();
    expect(await portal.locator('[name="bank_1"]').isVisible()).toBe(false);
    await portal.locator('label[for="method-bank"]').click();
    await portal.locator('[name="bank_1"]').waitFor();
    expect(await portal.locator('[name="paypalEmail"]').isVisible()).toBe(false);
    await portal.locator('[name="bank_0"]').fill("Lena Tester");
    await portal.locator('[name="bank_1"]').fill("DE89 3704 0044 0532 0130 01");
    await portal.locator('[name="current"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Save" }).click();
    await portal.getByText("Enter a valid IBAN").waitFor();
    // The refused form comes back with bank transfer still chosen.
    expect(await portal.getByLabel("Bank transfer").isChecked()).toBe(true);
    await portal.locator('[name="bank_0"]').fill("Lena Tester");
    await portal.locator('[name="bank_1"]').fill(IBAN);
    await portal.locator('[name="current"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Save" }).click();
    await portal.waitForURL("**/account/payouts?saved=1");
    await portal.locator("#bank-saved").waitFor();
    expect(await portal.locator("#bank-saved").textContent()).toBe("Saved: IBAN •••• 3000. Leave empty to keep.");
    expect(await portal.getByTestId("payout-method-reminder").count()).toBe(0);
    expect(await portal.content()).not.toContain("DE89370400440532013000");
    await portal.screenshot({ path: screenshotPath("account-payout-method-desktop"), fullPage: true });
    await portal.setViewportSize({ width: 390, height: 844 });
    await portal.reload();
    await portal.locator("#bank-saved").waitFor();
    const overflow = await portal.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await portal.screenshot({ path: screenshotPath("account-payout-method-390"), fullPage: true });
    // The refused IBAN was a 422.
    expect(portalErrors.unexpected(/status of 422/)).toEqual([]);

    // The merchant: the pending payouts say how each will be paid.
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    const lenaRow = page.getByRole("row", { name: /Lena Tester/ });
    await lenaRow.waitFor();
    await expect.poll(() => lenaRow.textContent()).toMatch(/By hand.*IBAN •••• 3000/);
    expect(await page.getByRole("row", { name: /Otto Tester/ }).textContent()).toMatch(/CSV file.*Shop default/);
    await page.screenshot({ path: screenshotPath("payouts-pending-own-method"), fullPage: true });
    await lenaRow.getByRole("link").click();
    await page.locator("#payout-method").waitFor();
    expect(await page.locator("#payout-method").textContent()).toBe("By hand (The affiliate's choice)");
    expect(await page.locator("#affiliate-method").textContent()).toBe("Bank transfer · IBAN •••• 3000");
    expect(await page.content()).not.toContain("DE89370400440532013000");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Show full details" }).click();
    await page.getByText("DE89370400440532013000").waitFor();
    await page.getByText("Lena Tester", { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("payout-bank-details"), fullPage: true });

    // Auto-pay: Lena by hand (her choice), Otto by the shop's default, which his history says.
    // Its time comes.
    const [job] = await getDb().job.findMany({ where: { type: "payouts.auto-pay", status: "queued" } });
    expect(JSON.parse(job!.payload).shopId).toBe(shop.id);
    await getDb().job.update({ where: { id: job!.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await drainJobs();
    const lenaPayout = await getDb().payout.findFirstOrThrow({
      where: { affiliateId: lena.id },
      include: { batch: true },
    });
    const ottoPayout = await getDb().payout.findFirstOrThrow({
      where: { affiliateId: otto.id },
      include: { batch: true },
    });
    expect([lenaPayout.status, lenaPayout.method, lenaPayout.batch?.createdBy]).toEqual([
      "processing",
      "manual",
      "schedule",
    ]);
    expect([ottoPayout.status, ottoPayout.method, ottoPayout.batch?.createdBy]).toEqual([
      "processing",
      "csv",
      "schedule",
    ]);

    // The Processing tab follows the two batches auto-pay made.
    await page.goto("/admin/payouts?status=processing");
    await page.locator(`#batch-progress-${lenaPayout.batchId}`).waitFor();
    expect(await page.locator(`#batch-progress-${lenaPayout.batchId}`).textContent()).toBe(
      "Settled 0 of 1 (paid 0, failed 0)",
    );
    await page.screenshot({ path: screenshotPath("payouts-batches-progress"), fullPage: true });
    await page.goto(`/admin/payouts/${lenaPayout.id}`);
    await page.locator("#payout-method").waitFor();
    expect(await page.locator("#payout-method").textContent()).toBe("By hand");
    const history = page.getByRole("row", { name: /Sent for payment/ });
    expect(await history.textContent()).toMatch(/Sent for payment: By hand.*Auto-pay/);
    await page.screenshot({ path: screenshotPath("payout-auto-paid-own-method"), fullPage: true });
    await page.goto(`/admin/payouts/${ottoPayout.id}`);
    const ottoHistory = page.getByRole("row", { name: /Sent for payment/ });
    await ottoHistory.waitFor();
    expect(await ottoHistory.textContent()).toContain(
      "Sent for payment: CSV file · Shop default: the affiliate has not chosen",
    );
    expect(errors.unexpected()).toEqual([]);
  });
  it("Pay: PayPal not connected says where to connect it; by hand closes at once, never showing 0 selected", async () => {
    const { shop, lena } = await setup();
    // A minimum of $20.00: Otto's $18.00 waits under it, listed below the payouts.
    await savePaymentSettings(
      shopDb(getDb(), shop.id),
      paymentSettingsFormSchema.parse({
        affiliateMethods: ["paypal", "bank"],
        minimumAmount: 2000,
        defaultMethod: "csv",
      }),
      "UTC",
    );
    await gatherPendingPayouts(shop.id);
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    const row = page.getByRole("row", { name: /Lena Tester/ });
    await row.waitFor();
    expect(await page.locator("#below-minimum").textContent()).toBe(
      "These balances stay with their affiliates until they reach the minimum. Commission lines: 1, total: $18.00.",
    );
    await page.screenshot({ path: screenshotPath("payouts-below-minimum"), fullPage: true });
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Pay the selected payouts" });
    const method = dialog.getByLabel("Payment method");
    // The default pays each affiliate by their own method.
    expect(await method.inputValue()).toBe("choice");
    const paypal = method.locator('option[value="paypal"]');
    expect([await paypal.textContent(), await paypal.isDisabled()]).toEqual(["PayPal (not connected)", true]);
    const hint = dialog.locator("#pay-paypal-hint");
    expect(await hint.textContent()).toBe("To pay with PayPal, connect your PayPal account first: Settings › Payment");
    expect(await hint.getByRole("link").getAttribute("href")).toBe("/admin/settings/payment");
    await page.screenshot({ path: screenshotPath("payouts-pay-dialog-paypal-hint"), fullPage: true });

    // Anything the dialog shows from here on is recorded.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const text = document.querySelector("#pay-summary")?.textContent;
        if (text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await method.selectOption("manual");
    await dialog.getByRole("button", { name: "Pay $42.50" }).click();
    await page.getByText("The payouts are on their way.").last().waitFor();
    await dialog.waitFor({ state: "detached" });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.filter((text) => !text.startsWith("Selected payouts: 1."))).toEqual([]);
    expect((await getDb().payout.findFirstOrThrow({ where: { affiliateId: lena.id } })).status).toBe("processing");
    expect(errors.unexpected()).toEqual([]);
  });
});
