import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { clickUntil, logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Paying an affiliate by hand in a real Chromium: the merchant approves two
// sales, the Payouts list shows the affiliate's pending payout (gathered
// from the approved lines), the merchant pays it with the "By hand" method
// and marks it paid with a reference; it moves to the Paid tab, and the
// affiliate sees it, with its reference, on /account/payouts.
applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@pay-gear.example";
const SHOP = "pay-gear.myshopify.com";
const AFFILIATE_PASSWORD = "affiliate pass phrase";
const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

describe.skipIf(skipWithoutChromium(chromiumPath))("payouts in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("approve sales → pending payout → pay by hand → Paid; the affiliate sees it", async () => {
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Pay Gear", url: `https://${SHOP}`, adminEmail: EMAIL, pricingPlan: "growth" },
    });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id);
    const ana = await buildAffiliate(shop.id, campaign.id, {
      email: "ana@aff.example",
      firstName: "Ana",
      lastName: "Lopez",
      referralCode: "ANA",
      paypalEmail: "ana-pay@aff.example",
      password: AFFILIATE_PASSWORD,
    });
    for (const [name, amount] of [
      ["#2001", 4050],
      ["#2002", 1500],
    ] as const) {
      const order = await buildOrder(shop.id, { name, affiliateId: ana.id, placedAt: new Date(Date.now() - 60_000) });
      await buildCommission(shop.id, order.id, ana.id, { amount, explanation: `10% of ${name}` });
    }

    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL, TEST_PASSWORD);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");

    // 1. Approve both sales from the list.
    await page.goto("/admin/sales?status=pending");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    await page.locator("thead").getByRole("checkbox").check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("2 sales approved.").waitFor();

    // 2. The job worker gathers the approved lines (the events of the
    // approval queue it); the pending payout appears, with the total per currency.
    await drainJobs();
    await page.goto("/admin/payouts");
    await waitForHydration(page);
    await heading(page, "Payouts").waitFor();
    await page.getByRole("cell", { name: /Ana Lopez/ }).waitFor();
    expect(await page.locator("#payout-totals").textContent()).toBe("$55.50");
    await page.screenshot({ path: screenshotPath("payouts-pending"), fullPage: true });

    // 3. Pay: select it, choose "By hand", the confirmation shows the total.
    await waitForTableLoaded(page);
    await page.locator("tbody").getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.getByLabel("Payment method").selectOption("manual");
    await page.locator("#pay-summary").getByText("Total: $55.50").waitFor();
    await page.screenshot({ path: screenshotPath("payouts-pay-dialog"), fullPage: true });
    await page.getByRole("button", { name: "Pay $55.50" }).click();
    await page.getByText("The payouts are on their way.").first().waitFor();
    const payout = await db.payout.findFirstOrThrow({ where: { shopId: shop.id } });
    expect([payout.status, payout.method]).toEqual(["processing", "manual"]);

    // 4. Processing → open it → mark paid with a reference. The list has
    // reloaded after the Pay once the tab counts it: a click while the tabs
    // re-render with the new counts could land on a tab being replaced.
    // Still lost once under CI's load (stop 46): the click landed and no
    // navigation followed. Polaris's Tabs measure their labels again after the
    // counts change and may replace a tab between press and release, which is
    // no click: a person clicks again, and so does this test, at most twice.
    await page.getByRole("tab", { name: "Processing (1)" }).waitFor();
    await clickUntil(page.getByRole("tab", { name: /^Processing/ }), () =>
      page.waitForURL((url) => url.searchParams.get("status") === "processing", { timeout: 5_000 }),
    );
    await page.getByRole("link", { name: "Ana Lopez" }).click();
    await page.waitForURL(`**/admin/payouts/${payout.id}`);
    await heading(page, "Payout").waitFor();
    await page.getByRole("link", { name: "#2001" }).waitFor();
    await page.getByLabel("Reference").fill("BANK-7781");
    await page.getByRole("button", { name: "Mark $55.50 as paid" }).click();
    await page.locator("#payout-reference").getByText("BANK-7781").waitFor();
    await page.screenshot({ path: screenshotPath("payout-paid"), fullPage: true });
    const paid = await db.payout.findUniqueOrThrow({ where: { id: payout.id } });
    expect([paid.status, paid.reference]).toEqual(["paid", "BANK-7781"]);
    expect((await db.commission.findMany({ where: { affiliateId: ana.id } })).map((c) => c.status)).toEqual([
      "paid",
      "paid",
    ]);

    // 5. The Paid tab lists it.
    await page.goto("/admin/payouts?status=paid");
    await waitForHydration(page);
    await page.getByRole("cell", { name: "BANK-7781" }).waitFor();
    expect(errors.unexpected(failedResource(404))).toEqual([]);

    // 6. The affiliate sees it on /account/payouts.
    const affiliate = await browser.newSession(server.url(""));
    await affiliate.page.goto("/portal/pay-gear/login");
    await affiliate.page.locator('[name="email"]').fill("ana@aff.example");
    await affiliate.page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await affiliate.page.getByRole("button", { name: "Log in" }).click();
    await affiliate.page.waitForURL("**/account");
    await affiliate.page.goto("/account/payouts");
    await affiliate.page.getByText("BANK-7781").waitFor();
    await affiliate.page.getByText("$55.50").first().waitFor();
    await affiliate.page.screenshot({ path: screenshotPath("account-payouts-paid"), fullPage: true });
    expect(affiliate.errors.unexpected()).toEqual([]);
  });
});
