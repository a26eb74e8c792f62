import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { hashPassword } from "~/models/auth/password.server";
import { signTaxForm } from "~/models/tax-forms/tax-form-store.server";
import { w9Schema } from "~/models/tax-forms/tax-form-schemas";
import { drainJobs } from "~/worker/job-registry.server";
import { SCOPES } from "~/shopify.server";
import { expectPage, logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildCampaign, buildUser } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { savedDownload } from "../support/download";

// Tax forms in a real Chromium: the shop requires a form before paying; a
// US affiliate's payout waits (both sides see why, the merchant's Pay is
// refused), the affiliate signs a W-9 in the account area (the TIN never
// comes back), and the payout is then paid. The year's 1099-NEC CSV lists
// only what was paid outside PayPal, and only payees above the threshold.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "tax-forms.myshopify.com";
const HANDLE = "tax-forms";
const ADMIN_EMAIL = "owner@tax-forms.example";
const PASSWORD = "affiliate secret words";
const SAM = "gid://shopify/Customer/9400000000";
const TIN = "123-45-6789";

describe.skipIf(skipWithoutChromium(chromiumPath))("tax forms and the 1099-NEC export in Chromium", () => {
  const sim = useStoreSimulator();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("holds a payout until the W-9 is signed, pays it after, and exports only by-hand totals over the threshold", async () => {
    sim.reset();
    const db = getDb();
    const shop = await db.shop.create({
      data: {
        domain: SHOP,
        name: "Tax Forms",
        url: `https://${SHOP}`,
        adminEmail: ADMIN_EMAIL,
        pricingPlan: "growth",
        settings: JSON.stringify({ taxForms: { require: "always", amount: 0 } }),
      },
    });
    await db.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        accessToken: sim.accessToken(SHOP),
        scope: SCOPES.join(","),
      },
    });
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    await db.campaign.update({ where: { id: campaign.id }, data: { isDefault: true } });
    const affiliate = async (firstName: string, email: string, customerGid: string | null) =>
      db.affiliate.create({
        data: {
          shopId: shop.id,
          campaignId: campaign.id,
          email,
          firstName,
          lastName: "Tester",
          status: "approved",
          referralCode: firstName.toUpperCase(),
          customerGid,
          passwordHash: await hashPassword(PASSWORD),
        },
      });
    const sam = await affiliate("Sam", "sam@aff.example", SAM);
    const order = await buildOrder(shop.id, { affiliateId: sam.id });
    await buildCommission(shop.id, order.id, sam.id, { amount: 250_000, status: "approved", sourceRef: "s1" });
    await gatherPendingPayouts(shop.id);

    // The merchant sees why the payout waits, and Pay is refused.
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    const row = page.getByRole("row", { name: /Sam Tester/ });
    await row.waitFor();
    await row.getByText("Waits for the affiliate's tax form").waitFor();
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Pay the selected payouts" });
    await dialog.getByLabel("Payment method").selectOption("store_credit");
    await dialog.getByRole("button", { name: "Pay $2,500.00" }).click();
    await dialog.getByText("1 of the selected payouts waits for the affiliate's tax form", { exact: false }).waitFor();
    await page.screenshot({ path: screenshotPath("tax-pay-refused"), fullPage: true });
    expect(await db.payout.findFirstOrThrow({ where: { affiliateId: sam.id } })).toMatchObject({ status: "pending" });
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The reminder e-mail was queued when the payout appeared (the refresh job queued its look).
    await drainJobs();
    expect(await db.outboxEmail.count({ where: { shopId: shop.id, kind: "affiliate.tax_form_reminder" } })).toBe(1);

    // The affiliate sees it too, and signs a W-9.
    const { page: portal, errors: portalErrors } = await browser.newSession(server.url(""));
    await portal.goto(`/portal/${HANDLE}/login`);
    await portal.locator('[name="email"]').fill("sam@aff.example");
    await portal.locator('[name="password"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Log in" }).click();
    await portal.waitForURL("**/account");
    await portal.goto("/account/payouts");
    await portal.getByText("A payment of $2,500.00 waits for your tax form.").waitFor();
    await portal.screenshot({ path: screenshotPath("tax-account-held"), fullPage: true });
    await portal.getByRole("link", { name: "Submit your tax form" }).first().click();
    await portal.waitForURL("**/account/payouts/tax-form");
    await portal.locator("#kind-w9").click();
    await portal.waitForURL("**/tax-form?kind=w9");
    const form = portal.locator("#tax-form");
    await form.locator('[name="classification"]').selectOption("individual");
    await form.locator('[name="address"]').fill("12 Main Street");
    await form.locator('[name="city"]').fill("Springfield");
    await form.locator('[name="state"]').fill("IL");
    await form.locator('[name="zip"]').fill("62701");
    await form.locator('[name="tinType"]').selectOption("ssn");
    // A bad TIN first: refused, and the number is not sent back in the page.
    await form.locator('[name="tin"]').fill("000-12-3456");
    await form.locator('[name="certify"]').check();
    await form.getByRole("button", { name: "Sign and submit" }).click();
    await portal.getByText("Enter a valid taxpayer identification number").waitFor();
    expect(await portal.content()).not.toContain("000-12-3456");
    await portal.screenshot({ path: screenshotPath("tax-w9-error"), fullPage: true });
    await form.locator('[name="tin"]').fill(TIN);
    await form.locator('[name="certify"]').check();
    await form.getByRole("button", { name: "Sign and submit" }).click();
    await portal.waitForURL("**/tax-form?saved=1");
    await portal.getByText("Your tax form is signed and saved.").waitFor();
    expect(await portal.locator("#tax-form-tin").textContent()).toBe("Taxpayer identification number: •••• 6789");
    expect(await portal.content()).not.toContain("123456789");
    await portal.screenshot({ path: screenshotPath("tax-w9-signed"), fullPage: true });

    const stored = await db.taxForm.findFirstOrThrow({ where: { affiliateId: sam.id } });
    expect(stored).toMatchObject({ kind: "w9", tinType: "ssn", tinLast4: "6789", signatureName: "Sam Tester" });
    expect(stored.tinSealed).not.toContain("6789");
    expect(stored.signerAgent).toMatch(/Chrom/);
    expect(stored.signerIp).not.toBe("");

    // The signed copy as a PDF.
    const [download] = await Promise.all([
      portal.waitForEvent("download"),
      portal.getByRole("link", { name: "Download the signed form (PDF)" }).click(),
    ]);
    const pdf = readFileSync(await savedDownload(download));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(download.suggestedFilename()).toMatch(/^w9-\d{4}-\d{2}-\d{2}\.pdf$/);

    // Now the merchant's Pay goes through, and the store credit is paid.
    await page.reload();
    await waitForHydration(page);
    await waitForTableLoaded(page);
    const again = page.getByRole("row", { name: /Sam Tester/ });
    await again.waitFor();
    expect(await again.textContent()).not.toContain("tax form");
    await again.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await dialog.getByLabel("Payment method").selectOption("store_credit");
    await dialog.getByRole("button", { name: "Pay $2,500.00" }).click();
    await page.getByText("The payouts are on their way.").last().waitFor();
    await drainJobs();
    const paid = await db.payout.findFirstOrThrow({ where: { affiliateId: sam.id } });
    expect(paid).toMatchObject({ status: "paid", method: "store_credit" });

    // A year of payments: Sam also got $3,000 through PayPal and $500 by hand;
    // Pat (a W-9 too) got $5,000 through PayPal and $100 by hand.
    const pat = await affiliate("Pat", "pat@aff.example", null);
    await signTaxForm(
      shopDb(db, shop.id),
      pat.id,
      w9Schema.parse({
        kind: "w9",
        name: "Pat Tester",
        classification: "individual",
        address: "1 Elm Road",
        city: "Austin",
        state: "TX",
        zip: "73301",
        tinType: "ein",
        tin: "12-3456789",
        signatureName: "Pat Tester",
        certify: "on",
      }),
      { ip: "127.0.0.1", userAgent: "test" },
    );
    const paidAt = new Date(paid.paidAt!);
    const history = (affiliateId: string, amount: number, method: string) =>
      db.payout.create({
        data: { shopId: shop.id, affiliateId, amount, currency: "USD", status: "paid", method, paidAt },
      });
    await history(sam.id, 300_000, "paypal");
    await history(sam.id, 50_000, "manual");
    await history(pat.id, 500_000, "paypal");
    await history(pat.id, 10_000, "csv");

    const year = paidAt.getUTCFullYear();
    await page.goto(`/admin/payouts/tax-1099?year=${year}`);
    await expectPage(page, "/admin/payouts/tax-1099", "1099-NEC");
    await page.locator("#not-legal-advice").waitFor();
    await expect
      .poll(() => page.locator("#nec-summary").textContent())
      .toBe("1 payee reaches the threshold, $3,000.00 in all.");
    await page.screenshot({ path: screenshotPath("tax-1099-summary"), fullPage: true });
    expect(await page.content()).not.toContain("123456789");
    const csv = await page.evaluate(
      (url) => fetch(url).then((r) => r.text()),
      `/admin/payouts/tax-1099.csv?year=${year}`,
    );
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("Recipient Name,Recipient Business Name,Recipient TIN Type,Recipient TIN");
    expect(lines[1]).toBe(
      `Sam Tester,,SSN,${TIN},12 Main Street,,Springfield,IL,62701,US,sam@aff.example,${sam.id},3000.00,0.00,${year}`,
    );

    // A year whose threshold is not published yet is refused, not guessed.
    await page.goto(`/admin/payouts/tax-1099?year=2027`);
    await page.locator("#nec-unknown-year").waitFor();
    await page.screenshot({ path: screenshotPath("tax-1099-unknown-year"), fullPage: true });

    // Settings › Tax forms.
    await page.goto("/admin/settings/tax");
    await expectPage(page, "/admin/settings/tax", "Tax forms");
    await page.screenshot({ path: screenshotPath("tax-settings"), fullPage: true });

    // The refused Pay and the refused W-9 are the expected 422s.
    expect(errors.unexpected(failedResource(422))).toEqual([]);
    expect(portalErrors.unexpected(failedResource(422))).toEqual([]);
  }, 240_000);
});
