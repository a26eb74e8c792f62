import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
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

// Paying affiliates without PayPal's API, in a real Chromium: the merchant
// pays a pending payout in Shopify store credit (the store simulator is the
// shop) and the affiliate sees it paid; and pays two by CSV: exports the
// plain file, fills in the references, imports it back, and they are Paid.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "manual-pay.myshopify.com";
const HANDLE = "manual-pay";
const ADMIN_EMAIL = "owner@manual-pay.example";
const AFFILIATE_PASSWORD = "affiliate secret words";
// The simulator's first shopper (sam.shopper@example.net).
const SAM = "gid://shopify/Customer/9400000000";

describe.skipIf(skipWithoutChromium(chromiumPath))("paying by store credit and by CSV in Chromium", () => {
  const sim = useStoreSimulator();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  async function setup() {
    sim.reset();
    const db = getDb();
    const shop = await db.shop.create({
      data: {
        domain: SHOP,
        name: "Manual Pay",
        url: `https://${SHOP}`,
        adminEmail: ADMIN_EMAIL,
        pricingPlan: "growth",
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
          passwordHash: await hashPassword(AFFILIATE_PASSWORD),
        },
      });
    let n = 0;
    // An approved sale, gathered into a pending payout as the payouts.refresh job does.
    const approvedSale = async (affiliateId: string, amount: number) => {
      const order = await buildOrder(shop.id, { affiliateId });
      await buildCommission(shop.id, order.id, affiliateId, { amount, status: "approved", sourceRef: `s${n++}` });
      await gatherPendingPayouts(shop.id);
    };
    return { shop, affiliate, approvedSale };
  }

  async function openPending(page: Page) {
    await logIn(page, "admin", ADMIN_EMAIL);
    await waitForHydration(page);
    await page.goto("/admin/payouts");
    await expectPage(page, "/admin/payouts", "Payouts");
    await waitForHydration(page);
    await waitForTableLoaded(page);
  }

  it("pays a pending payout in store credit: Paid, and the affiliate sees it", async () => {
    const { affiliate, approvedSale } = await setup();
    const sam = await affiliate("Sam", "sam@aff.example", SAM);
    await approvedSale(sam.id, 4250);
    const { page, errors } = await browser.newSession(server.url(""));

    await openPending(page);
    const row = page.getByRole("row", { name: /Sam Tester/ });
    await row.waitFor();
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Pay the selected payouts" });
    await dialog.getByLabel("Payment method").selectOption("store_credit");
    await dialog.getByText("The app adds the amount to each affiliate's store credit in Shopify.").waitFor();
    await page.screenshot({ path: screenshotPath("payouts-pay-store-credit"), fullPage: true });
    await dialog.getByRole("button", { name: "Pay $42.50" }).click();
    await page.getByText("The payouts are on their way.").last().waitFor();

    // The worker sends the batch after the commit.
    await drainJobs();
    const payout = await getDb().payout.findFirstOrThrow({ where: { affiliateId: sam.id } });
    expect(payout).toMatchObject({ status: "paid", method: "store_credit" });
    const account = sim.store.shop(SHOP).storeCreditAccounts.find((a) => a.customerId === "9400000000")!;
    expect(account.balance).toBe(4250);

    await page.getByRole("tab", { name: /^Paid/ }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "paid");
    const paid = page.getByRole("row", { name: /Sam Tester/ });
    await paid.waitFor();
    await expect.poll(() => paid.textContent()).toMatch(/Store credit.*Paid.*\$42\.50/);
    await page.screenshot({ path: screenshotPath("payouts-paid-store-credit"), fullPage: true });

    // The affiliate's payouts page shows it paid.
    const { page: portal } = await browser.newSession(server.url(""));
    await portal.goto(`/portal/${HANDLE}/login`);
    await portal.locator('[name="email"]').fill("sam@aff.example");
    await portal.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await portal.getByRole("button", { name: "Log in" }).click();
    await portal.waitForURL("**/account");
    await portal.goto("/account/payouts");
    const history = portal.getByRole("row", { name: /\$42\.50/ });
    await history.waitFor();
    expect(await history.textContent()).toMatch(/Store credit.*Paid/);
    await portal.screenshot({ path: screenshotPath("account-payouts-store-credit"), fullPage: true });

    expect(errors.unexpected()).toEqual([]);
  });

  it("exports pending payouts as CSV and imports the file back: they are Paid", async () => {
    const { affiliate, approvedSale } = await setup();
    const ada = await affiliate("Ada", "ada@aff.example", null);
    const ben = await affiliate("Ben", "ben@aff.example", null);
    await approvedSale(ada.id, 1200);
    await approvedSale(ben.id, 800);
    const { page, errors } = await browser.newSession(server.url(""));

    await openPending(page);
    await page.getByRole("row", { name: /Ada Tester/ }).waitFor();
    await page
      .getByRole("row", { name: /Ada Tester/ })
      .getByRole("checkbox")
      .check();
    await page
      .getByRole("row", { name: /Ben Tester/ })
      .getByRole("checkbox")
      .check();
    await page.getByRole("button", { name: "Pay by CSV" }).click();
    const exportDialog = page.getByRole("dialog", { name: "Pay by CSV file" });
    await exportDialog.getByText("Selected payouts: 2.", { exact: false }).waitFor();
    await exportDialog.getByLabel("Plain CSV, to fill in the references and import").check();
    await page.screenshot({ path: screenshotPath("payouts-csv-export"), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      exportDialog.getByRole("button", { name: "Export and download" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^payouts-plain-\d{4}-\d{2}-\d{2}\.csv$/);
    await exportDialog.getByTestId("csv-exported").waitFor();
    expect(await exportDialog.getByTestId("csv-exported").textContent()).toBe("Payouts now being paid by CSV: 2.");
    const lines = readFileSync(await savedDownload(download), "utf8")
      .trim()
      .split("\n");
    expect(lines[0]).toBe(
      "payout_id,affiliate_email,affiliate_name,paypal_email,amount,currency,payout_amount,payout_currency,rate,rate_source,rate_at,created_at,reference,paid_at,note",
    );
    expect(lines.slice(1).map((l) => l.split(",").slice(1, 6))).toEqual(
      expect.arrayContaining([
        ["ada@aff.example", "Ada Tester", "", "12.00", "USD"],
        ["ben@aff.example", "Ben Tester", "", "8.00", "USD"],
      ]),
    );
    expect(await getDb().payout.count({ where: { status: "processing", method: "csv" } })).toBe(2);
    await exportDialog.locator("button", { hasText: "Close" }).click();

    // Paid at the bank: the references go into the file, which goes back in,
    // with a row of a payout that does not exist.
    const filled = [
      lines[0],
      ...lines.slice(1).map((l, i) => l.replace(/,,,$/, `,BANK-${i + 1},,`)),
      // Its reference in the reference column, wherever the header puts it.
      lines[0]!
        .split(",")
        .map((column) => ({ payout_id: "no-such-payout", reference: "BANK-9" })[column] ?? "")
        .join(","),
    ].join("\n");
    await page.getByRole("button", { name: "Import paid payouts" }).click();
    const importDialog = page.getByRole("dialog", { name: "Import paid payouts" });
    await importDialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "paid.csv", mimeType: "text/csv", buffer: Buffer.from(filled) });
    await importDialog.getByRole("button", { name: "Mark paid" }).click();
    // No worker runs beside the test server: the job waits, and the dialog shows its progress.
    await importDialog.getByText("Marking paid: 0 of 3 rows").waitFor();
    await importDialog.getByRole("progressbar").waitFor();
    await page.screenshot({ path: screenshotPath("payouts-csv-import-progress"), fullPage: true });
    await drainJobs();
    await importDialog.getByText("Marked paid: 2 · Already paid: 0 · Refused: 1").waitFor();
    const refusedRow = importDialog.getByTestId("import-report").getByRole("row", { name: /Refused/ });
    await expect.poll(() => refusedRow.textContent()).toBe("4Refusedpayout_idNo payout of this shop has this id");
    await page.screenshot({ path: screenshotPath("payouts-csv-imported"), fullPage: true });
    await importDialog.locator("button", { hasText: "Close" }).click();

    await page.getByRole("tab", { name: /^Paid/ }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "paid");
    for (const name of ["Ada Tester", "Ben Tester"]) {
      const row = page.getByRole("row", { name: new RegExp(name) });
      await row.waitFor();
      await expect.poll(() => row.textContent()).toMatch(/CSV file.*Paid.*BANK-\d/);
    }
    await page.screenshot({ path: screenshotPath("payouts-paid-csv"), fullPage: true });

    // A payout paid by CSV offers its payment's file again, in any format.
    await page
      .getByRole("row", { name: /Ada Tester/ })
      .getByRole("link")
      .click();
    await page.getByText("Download the file again:").waitFor();
    await waitForHydration(page);
    const [wise] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Wise" }).click(),
    ]);
    expect(wise.suggestedFilename()).toMatch(/^payouts-wise-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(readFileSync(await savedDownload(wise), "utf8").split("\n")[0]).toBe(
      "name,recipientEmail,paymentReference,receiverType,amountCurrency,amount,sourceCurrency,targetCurrency",
    );
    await page.screenshot({ path: screenshotPath("payout-csv-detail"), fullPage: true });
    expect(errors.unexpected(failedResource(422))).toEqual([]);
  });
});
