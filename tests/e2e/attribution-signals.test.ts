import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { DEFAULT_LEAK_SETTINGS, leakSettingsOf } from "~/models/leaks/detect-leak";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";

// Every signal reconciled, in a real Chromium: an order arrives by signed
// webhook with the affiliate's code and cart attribute, the Web Pixel then
// reports another affiliate's referral for the same checkout; the merchant's
// sale page lists each signal and names the other affiliate, the affiliate's
// says only that one signal pointed elsewhere. Then Settings › Marketings ›
// Leak watch is switched off and its thresholds changed.

applyTestEnv();
const chromiumPath = findChromium();
const SHOP = "signals-e2e.myshopify.com";
const ADMIN_EMAIL = "owner@signals.example";
const PASSWORD = "affiliate secret words";

describe.skipIf(skipWithoutChromium(chromiumPath))("attribution signals in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("shows which signals agreed, naming the other affiliate to the merchant only", async () => {
    const db = getDb();
    const shop = await buildShop({ domain: SHOP });
    await buildUser(shop.id, { email: ADMIN_EMAIL });
    const campaign = await buildCampaign(shop.id);
    const anna = await buildAffiliate(shop.id, campaign.id, {
      email: "anna@aff.example",
      firstName: "Anna",
      lastName: "Tester",
      referralCode: "ANNA",
      password: PASSWORD,
    });
    await buildAffiliate(shop.id, campaign.id, { firstName: "Ben", lastName: "Other", referralCode: "BEN" });
    await db.coupon.create({ data: { shopId: shop.id, affiliateId: anna.id, code: "ANNA10" } });

    const body = fixtureWith("orders_create.json", (o) => {
      o.cancelled_at = null;
      o.order_status_url = orderStatusUrl(SHOP);
      o.checkout_token = "tok-e2e-1";
      o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
      o.note_attributes = [{ name: "_affiliate_ref", value: "ANNA" }];
    });
    const res = await new HttpClient(server.url).request("/webhooks", {
      method: "POST",
      body,
      headers: webhookHeaders("orders/create", SHOP, body),
    });
    expect(res.status).toBe(200);
    await drainJobs();
    // The pixel's report comes after the order, naming another affiliate.
    const pixel = await fetch(server.url("/api/pixel/checkout-completed"), {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ shop: SHOP, checkout_token: "tok-e2e-1", ref: "BEN" }),
    });
    expect(pixel.status).toBe(204);
    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(order.affiliateId).toBe(anna.id);

    // The merchant's sale page.
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", ADMIN_EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto(`/admin/sales/${order.id}`);
    await waitForHydration(page);
    await page.locator("#attribution-signals").waitFor();
    expect(await page.locator("#attribution-signals").textContent()).toBe(
      "Signals: link click — (none), cart attribute ✓, pixel ✗ (Ben Other (BEN)), discount code ✓, customer link — (none)",
    );
    await page.screenshot({ path: screenshotPath("signals-admin-sale"), fullPage: true });

    // The affiliate's sale page: the pixel pointed elsewhere, not to whom.
    const { page: portal, errors: portalErrors } = await browser.newSession(server.url(""));
    await portal.goto(`/portal/${SHOP.replace(".myshopify.com", "")}/login`);
    await portal.locator('[name="email"]').fill("anna@aff.example");
    await portal.locator('[name="password"]').fill(PASSWORD);
    await portal.getByRole("button", { name: "Log in" }).click();
    await portal.waitForURL("**/account");
    await portal.goto(`/account/sales/${order.id}`);
    await portal.locator("#sale-signals").waitFor();
    expect(await portal.locator("#sale-signals").textContent()).toBe(
      "Signals: link click — (none), cart attribute ✓, pixel ✗ (another affiliate), discount code ✓, customer link — (none)",
    );
    expect(await portal.content()).not.toContain("BEN");
    await portal.screenshot({ path: screenshotPath("signals-account-sale"), fullPage: true });

    // Settings › Marketings › Leak watch: a bad host is refused on the card, then saved.
    await page.goto("/admin/settings/marketings");
    await expectPage(page, "/admin/settings/marketings", "Marketings");
    await waitForHydration(page);
    await page.getByLabel("Window (hours)").fill("48");
    await page.getByLabel("Code-only orders in the window").fill("1");
    await page.getByLabel("Coupon and deal sites").fill("retailmenot.com\nnot a host");
    await page.getByRole("button", { name: "Save leak watch" }).click();
    await page.getByText("Use at least 2").waitFor();
    await page.getByText("Enter a host name such as retailmenot.com").waitFor();
    await page.screenshot({ path: screenshotPath("signals-leak-watch-errors"), fullPage: true });
    await page.getByLabel("Code-only orders in the window").fill("3");
    await page.getByLabel("Coupon and deal sites").fill("retailmenot.com\nhttps://www.deals.example/x");
    await page.getByLabel("Watch affiliate codes for leaks").uncheck({ force: true });
    await page.getByRole("button", { name: "Save leak watch" }).click();
    await page.getByText("Save successful").waitFor();
    await page.screenshot({ path: screenshotPath("signals-leak-watch-saved"), fullPage: true });
    const stored = leakSettingsOf((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).settings);
    expect(stored).toEqual({
      ...DEFAULT_LEAK_SETTINGS,
      enabled: false,
      windowHours: 48,
      minOrders: 3,
      couponSites: ["retailmenot.com", "deals.example"],
    });
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel("Window (hours)").inputValue()).toBe("48");
    expect(await page.getByLabel("Watch affiliate codes for leaks").isChecked()).toBe(false);

    expect(errors.unexpected(failedResource(422))).toEqual([]);
    expect(portalErrors.unexpected()).toEqual([]);
  }, 240_000);
});
