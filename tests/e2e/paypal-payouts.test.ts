import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { FAKE_CLIENT_ID, FAKE_SECRET, FAKE_WEBHOOK_ID, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Paying by PayPal in a real Chromium against the fake PayPal (Prism checks
// each Payouts request against PayPal's OpenAPI file): the merchant connects
// PayPal, pays a pending payout by PayPal, the job sends the batch
// (Processing), PayPal's verified webhook reports the item (Paid), and the
// affiliate sees it. Then a returned item: the payout fails with PayPal's
// reason and the money is back in the affiliate's balance.
// The status job's first check is an hour away: here PayPal's webhooks move the items.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "3600" });

const chromiumPath = findChromium();
const EMAIL = "owner@pal-gear.example";
const SHOP = "pal-gear.myshopify.com";
const AFFILIATE_PASSWORD = "affiliate pass phrase";
const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

describe.skipIf(skipWithoutChromium(chromiumPath))("PayPal payouts in Chromium", () => {
  const paypal = usePaypal();
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  async function setUp(paypalEmail: string, connect: boolean) {
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Pal Gear", url: `https://${SHOP}`, adminEmail: EMAIL, pricingPlan: "growth" },
    });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id);
    const ana = await buildAffiliate(shop.id, campaign.id, {
      email: "ana@aff.example",
      firstName: "Ana",
      lastName: "Lopez",
      referralCode: "ANA",
      paypalEmail,
      password: AFFILIATE_PASSWORD,
    });
    for (const [name, amount] of [
      ["#3001", 4050],
      ["#3002", 1500],
    ] as const) {
      const order = await buildOrder(shop.id, { name, affiliateId: ana.id, placedAt: new Date(Date.now() - 60_000) });
      await buildCommission(shop.id, order.id, ana.id, { amount, status: "approved", explanation: `10% of ${name}` });
    }
    await gatherPendingPayouts(shop.id);
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL, TEST_PASSWORD);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    if (connect) await connectPaypal(page);
    return { db, shop, ana, page, errors };
  }

  async function connectPaypal(page: Page) {
    await page.goto("/admin/paypal/connect");
    await waitForHydration(page);
    await heading(page, "Connect PayPal").waitFor();
    await page.getByLabel("Client ID").fill(FAKE_CLIENT_ID);
    await page.getByLabel("Secret").fill("not-the-secret");
    await page.getByRole("button", { name: "Verify and connect" }).click();
    await page.getByText("PayPal did not accept this client ID and secret.").first().waitFor();
    await page.getByLabel("Secret").fill(FAKE_SECRET);
    await page.getByLabel("Webhook ID").fill(FAKE_WEBHOOK_ID);
    await page.getByRole("button", { name: "Verify and connect" }).click();
    await page.getByText("PayPal is connected").waitFor();
    await page.getByText(FAKE_CLIENT_ID, { exact: true }).waitFor();
    expect(await page.content()).not.toContain(FAKE_SECRET);
    await page.screenshot({ path: screenshotPath("paypal-connected"), fullPage: true });
  }

  async function payByPaypal(page: Page, total: string) {
    await page.goto("/admin/payouts");
    await waitForHydration(page);
    await page.getByRole("cell", { name: /Ana Lopez/ }).waitFor();
    await waitForTableLoaded(page);
    await page.locator("tbody").getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.getByLabel("Payment method").selectOption("paypal");
    await page.locator("#pay-summary").getByText(`Total: ${total}`).waitFor();
    await page.screenshot({ path: screenshotPath("paypal-pay-dialog"), fullPage: true });
    await page.getByRole("button", { name: `Pay ${total}` }).click();
    await page.getByText("The payouts are on their way.").first().waitFor();
  }

  /** PayPal's webhook about the one item of the one batch, signed by the fake PayPal. */
  async function paypalSays(shopId: string, status: string) {
    const fake = paypal.fake();
    const [batch] = [...fake.batches.values()];
    const hook = fake.webhookFor(batch!.items[0]!, batch!, FAKE_WEBHOOK_ID, status);
    const res = await fetch(server.url(`/webhooks/paypal/${shopId}`), {
      method: "POST",
      headers: hook.headers,
      body: hook.body,
    });
    expect(res.status).toBe(200);
    return batch!;
  }

  async function affiliatePayouts() {
    const affiliate = await browser.newSession(server.url(""));
    await affiliate.page.goto("/portal/pal-gear/login");
    await affiliate.page.locator('[name="email"]').fill("ana@aff.example");
    await affiliate.page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await affiliate.page.getByRole("button", { name: "Log in" }).click();
    await affiliate.page.waitForURL("**/account");
    await affiliate.page.goto("/account/payouts");
    return affiliate;
  }

  it("connect PayPal → pay a pending payout by PayPal → Processing → Paid; the affiliate sees it", async () => {
    const { db, shop, ana, page, errors } = await setUp("ana-pay@aff.example", true);
    await payByPaypal(page, "$55.50");
    const payout = await db.payout.findFirstOrThrow({ where: { shopId: shop.id } });
    expect([payout.status, payout.method]).toEqual(["processing", "paypal"]);

    // The worker sends the batch to PayPal.
    await drainJobs();
    const fake = paypal.fake();
    expect(fake.posts.map((p) => [p.senderBatchId, p.itemCount])).toEqual([[payout.batchId, 1]]);
    expect(fake.violations).toEqual([]);
    const [made] = [...fake.batches.values()];
    expect(made!.items[0]).toMatchObject({ sender_item_id: payout.id, amount: { currency: "USD", value: "55.50" } });

    await page.goto("/admin/payouts?status=processing");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Ana Lopez" }).click();
    await page.waitForURL(`**/admin/payouts/${payout.id}`);
    await page.screenshot({ path: screenshotPath("paypal-processing"), fullPage: true });
    await page.getByText(made!.payoutBatchId).first().waitFor();
    // PayPal holds it (issue 25): nobody marks it paid, failed or cancelled by hand, and the screen says why.
    await page.locator("#held-by-sender").getByText("the money may already have left").waitFor();
    await page.getByText("On its way: PayPal").waitFor();
    for (const name of ["Mark as failed", "Cancel this payout", "Pay again"]) {
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    }
    expect(await page.getByRole("button", { name: /^Mark .* as paid$/ }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("paypal-processing"), fullPage: true });
    // Staff with the payouts area see the same: what ADR 021 gives them is payments made by hand.
    await buildUser(shop.id, { role: "staff", email: "clerk@pal-gear.example", permissions: ["payouts"] });
    const clerk = await browser.newSession(server.url(""));
    await logIn(clerk.page, "staff", "clerk@pal-gear.example", TEST_PASSWORD);
    await clerk.page.waitForURL((url) => url.pathname === "/staff/dashboard");
    await clerk.page.goto(`/staff/payouts/${payout.id}`);
    await waitForHydration(clerk.page);
    await clerk.page.locator("#held-by-sender").waitFor();
    expect(await clerk.page.getByRole("button", { name: "Mark as failed" }).count()).toBe(0);
    await clerk.page.screenshot({ path: screenshotPath("paypal-processing-staff"), fullPage: true });
    expect(clerk.errors.unexpected()).toEqual([]);

    // PayPal reports the item paid.
    await paypalSays(shop.id, "SUCCESS");
    await page.reload();
    await waitForHydration(page);
    const item = made!.items[0]!;
    await page.locator("#payout-reference").getByText(item.transaction_id).waitFor();
    await page.screenshot({ path: screenshotPath("paypal-paid"), fullPage: true });
    const paid = await db.payout.findUniqueOrThrow({ where: { id: payout.id } });
    expect([paid.status, paid.paypalItemStatus, paid.reference]).toEqual(["paid", "SUCCESS", item.transaction_id]);
    expect((await db.commission.findMany({ where: { affiliateId: ana.id } })).map((c) => c.status)).toEqual([
      "paid",
      "paid",
    ]);
    await page.goto("/admin/payouts?status=paid");
    await waitForHydration(page);
    await page.getByRole("cell", { name: item.transaction_id }).waitFor();
    // The 422 is PayPal refusing the first, wrong secret.
    expect(errors.unexpected(failedResource(404), failedResource(422))).toEqual([]);

    const affiliate = await affiliatePayouts();
    await affiliate.page.getByText(item.transaction_id).waitFor();
    await affiliate.page.getByText("$55.50").first().waitFor();
    await affiliate.page.screenshot({ path: screenshotPath("paypal-account-paid"), fullPage: true });
    expect(affiliate.errors.unexpected()).toEqual([]);
  });

  it("a returned PayPal item fails the payout with PayPal's reason and puts the money back into the balance", async () => {
    const { db, shop, ana, page, errors } = await setUp("returned-ana@aff.example", false);
    await getDb().paypalConnection.deleteMany({});
    await connectPaypal(page);
    await payByPaypal(page, "$55.50");
    await drainJobs();
    const payout = await db.payout.findFirstOrThrow({ where: { shopId: shop.id } });

    await paypalSays(shop.id, "UNCLAIMED");
    await paypalSays(shop.id, "RETURNED");
    const failed = await db.payout.findUniqueOrThrow({ where: { id: payout.id } });
    expect([failed.status, failed.paypalItemStatus]).toEqual(["failed", "RETURNED"]);
    expect(await db.commission.count({ where: { affiliateId: ana.id, payoutId: null, status: "approved" } })).toBe(2);

    await page.goto(`/admin/payouts/${payout.id}`);
    await waitForHydration(page);
    await page
      .locator("#failure-reason")
      .getByText(/did not claim the PayPal payment within 30 days.*back in the affiliate's balance/)
      .waitFor();
    await page.screenshot({ path: screenshotPath("paypal-returned"), fullPage: true });
    // The 422 is PayPal refusing the first, wrong secret.
    expect(errors.unexpected(failedResource(404), failedResource(422))).toEqual([]);

    const affiliate = await affiliatePayouts();
    expect(await affiliate.page.locator("#payout-balance").textContent()).toContain("$55.50");
    await affiliate.page.screenshot({ path: screenshotPath("paypal-account-returned"), fullPage: true });
    expect(affiliate.errors.unexpected()).toEqual([]);
  });
});
