import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { upsertProducts } from "~/models/portal/product-catalogue.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildApiKey } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { startFakeDns, type FakeDns } from "../support/fake-dns";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useAppUrlPort, useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";

// An affiliate's whole journey in a real Chromium: sign up through the
// portal, get approved by the merchant (through the REST API: the admin
// affiliates screen is built on another branch), log in, copy a product
// link, follow it (a click is recorded), a simulated order credits them, and
// they see the sale and the pending balance. Guessing another affiliate's
// sale id gives 404. Needs the built app (npm run build).
applyTestEnv();
// The links the app hands out name its public URL: make that this server.
const port = useAppUrlPort();
useTestDatabase();
// Custom-domain verification asks this DNS server on loopback.
let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  process.env.DNS_SERVERS = dns.address;
});
afterAll(() => dns.close());
const server = useTestServer({ port });
const chromiumPath = findChromium();

const SHOP = "e2e-gear.myshopify.com";
const HANDLE = "e2e-gear";
const PASSWORD = "my affiliate password";

async function fill(page: Page, name: string, value: string) {
  await page.locator(`[name="${name}"]`).fill(value);
}

describe.skipIf(skipWithoutChromium(chromiumPath))("affiliate portal in Chromium", () => {
  const browser = useBrowser(chromiumPath);

  it("sign-up → approval → login → copy a product link → click → order → sale and pending balance; another's sale is 404", async () => {
    const db = getDb();
    const shop = await db.shop.create({
      data: {
        domain: SHOP,
        name: "E2E Gear",
        url: `https://${SHOP}`,
        adminEmail: "owner@e2e-gear.example",
        pricingPlan: "growth",
      },
    });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    await db.campaign.update({ where: { id: campaign.id }, data: { isDefault: true, commissionValue: 1000 } });
    await upsertProducts(shop.id, [
      { admin_graphql_api_id: "gid://shopify/Product/1", title: "Alpine Jacket", handle: "alpine-jacket" },
      { admin_graphql_api_id: "gid://shopify/Product/2", title: "Base Layer", handle: "base-layer" },
    ]);
    const { key } = await buildApiKey(shop.id);

    const { context, page, errors } = await browser.newSession(server.url(""));
    // 1. Sign up through the portal.
    await page.goto(`/portal/${HANDLE}/`);
    await expect(page.getByRole("heading", { name: "Earn with E2E Gear" })).toBeDefined();
    await page.getByRole("link", { name: "Join now" }).click();
    await page.waitForURL(`**/portal/${HANDLE}/signup`);
    await fill(page, "firstName", "Lena");
    await fill(page, "lastName", "Park");
    await fill(page, "email", "lena@aff.example");
    await fill(page, "password", PASSWORD);
    await page.screenshot({ path: screenshotPath("affiliate-signup-form"), fullPage: true });
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByTestId("signup-done").waitFor();
    expect(await page.getByTestId("signup-done").textContent()).toContain("pending approval");
    const affiliate = await db.affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "lena@aff.example" } });
    expect(affiliate.status).toBe("pending");

    // 2. The merchant approves (REST API).
    const approve = await fetch(server.url(`/api/v1/affiliates/${affiliate.id}`), {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "approved" }),
    });
    expect(approve.status, await approve.clone().text()).toBe(200);

    // 3. Log in.
    await page.getByRole("link", { name: "Go to login" }).click();
    await page.waitForURL(`**/portal/${HANDLE}/login`);
    await fill(page, "email", "lena@aff.example");
    await fill(page, "password", PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");
    expect(await page.getByTestId("pending-notice").count()).toBe(0);

    // 4. Copy a product link.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url("") });
    await page.getByRole("link", { name: "Products" }).click();
    await page.waitForURL("**/account/products");
    const product = page.getByTestId("product").filter({ hasText: "Alpine Jacket" });
    await product.getByRole("button", { name: "Copy" }).click();
    await product.getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      `${server.url("")}/r/${SHOP.replace(".myshopify.com", "")}/LENAPARK?to=%2Fproducts%2Falpine-jacket`,
    );
    await page.screenshot({ path: screenshotPath("affiliate-products-copied"), fullPage: true });

    // 5. Follow it in a new tab, like a visitor: the click is recorded before the redirect.
    // The store itself is not reachable from here: the browser's request to
    // it (after the app's redirect) is what we look at.
    const visitor = await context.newPage();
    const storeRequest = visitor.waitForRequest((r) => new URL(r.url()).host === SHOP);
    await visitor.goto(copied).catch(() => null);
    const landed = new URL((await storeRequest).url());
    expect(landed.origin + landed.pathname).toBe(`https://${SHOP}/products/alpine-jacket`);
    expect(landed.searchParams.get("ref")).toBe("LENAPARK");
    const clickId = landed.searchParams.get("_aff_click");
    const click = await db.click.findUniqueOrThrow({ where: { clickId: clickId! } });
    expect(click).toMatchObject({
      shopId: shop.id,
      affiliateId: affiliate.id,
      landingUrl: `https://${SHOP}/products/alpine-jacket`,
    });
    await visitor.close();

    // 6. The store sends the order (a signed orders/create webhook with the cart attributes).
    const body = fixtureWith("orders_create.json", (o) => {
      o.cancelled_at = null;
      o.order_status_url = orderStatusUrl(SHOP);
      o.processed_at = new Date().toISOString();
      o.discount_codes = [];
      o.note_attributes = [
        { name: "_affiliate_ref", value: "LENAPARK" },
        { name: "_affiliate_click", value: clickId },
      ];
    });
    const hook = await fetch(server.url("/webhooks"), {
      method: "POST",
      body,
      headers: webhookHeaders("orders/create", SHOP, body),
    });
    expect(hook.status).toBe(200);
    await drainJobs();
    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(order).toMatchObject({ affiliateId: affiliate.id, attributionSource: "link", status: "pending" });
    const commission = await db.commission.findFirstOrThrow({
      where: { orderId: order.id, affiliateId: affiliate.id },
    });

    // 7. The affiliate sees the sale and the pending balance.
    await page.getByRole("link", { name: "Sales" }).click();
    await page.waitForURL("**/account/sales");
    const row = page.getByRole("row").filter({ hasText: order.name });
    await row.waitFor();
    expect(await row.textContent()).toContain("Pending");
    const money = `$${(commission.amount / 100).toFixed(2)}`;
    expect(await row.textContent()).toContain(money);
    await page.screenshot({ path: screenshotPath("affiliate-sales"), fullPage: true });
    await page.getByRole("link", { name: "Payouts" }).click();
    await page.waitForURL("**/account/payouts");
    expect(await page.locator("#payout-pending").textContent()).toBe(money);
    // Where the money goes changes only with the password.
    await fill(page, "paypalEmail", "lena.pay@aff.example");
    await fill(page, "current", "not my password");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("This is not your current password").waitFor();
    expect(await page.locator('[name="paypalEmail"]').inputValue()).toBe("lena.pay@aff.example");
    await page.screenshot({ path: screenshotPath("affiliate-payout-password"), fullPage: true });
    await fill(page, "current", PASSWORD);
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL("**/account/payouts?saved=1");
    const saved = await db.affiliate.findUniqueOrThrow({ where: { id: affiliate.id } });
    expect(saved.paypalEmail).toBe("lena.pay@aff.example");
    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL("**/account");
    expect(await page.locator("#tile-pending").textContent()).toBe(money);
    expect(await page.locator("#tile-clicks").textContent()).toBe("1");
    expect(await page.locator("#tile-sales").textContent()).toBe("1");
    await page.screenshot({ path: screenshotPath("affiliate-dashboard"), fullPage: true });

    // 8. Guessing another affiliate's sale id: 404.
    const other = await buildAffiliate(shop.id, campaign.id, { email: "other@aff.example" });
    const theirs = await db.order.create({
      data: {
        shopId: shop.id,
        shopifyGid: "gid://shopify/Order/99",
        name: "#9999",
        currency: "USD",
        subtotal: 1000,
        total: 1000,
        affiliateId: other.id,
        placedAt: new Date(),
      },
    });
    const guessed = await page.goto(`/account/sales/${theirs.id}`);
    expect(guessed?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    expect(await page.content()).not.toContain("#9999");
    await page.screenshot({ path: screenshotPath("affiliate-sale-404"), fullPage: true });

    // 9. Log out.
    await page.goto("/account");
    await page.getByTestId("logout").click();
    await page.waitForURL(`**/portal/${HANDLE}/login`);

    // Expected: the 422 of the wrong payout password, the 404 of another's sale.
    expect(errors.unexpected(failedResource(404), failedResource(422))).toEqual([]);
  });

  it("the merchant sets a custom domain, publishes the TXT record shown, and verifies it", async () => {
    const shop = await getDb().shop.create({
      data: {
        domain: "domain-gear.myshopify.com",
        name: "Domain Gear",
        url: "https://domain-gear.myshopify.com",
        adminEmail: "o@domain.example",
        // A custom domain is a Pro feature.
        pricingPlan: "pro",
      },
    });
    const admin = await buildUser(shop.id, { email: "admin@domain.example" });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", admin.email, TEST_PASSWORD);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    // The domain moved to Settings > Marketings; Portals keeps a link to it.
    await page.goto("/admin/portals");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Open Settings › Marketings" }).click();
    await expectPage(page, "/admin/settings/marketings", "Marketings");
    await page.getByLabel("Portal domain").fill("partners.domain-gear.example");
    await page.getByRole("button", { name: "Save domain" }).click();
    await page.getByText("Not verified", { exact: true }).waitFor();
    const name = (await page.getByTestId("record-name").textContent())!;
    const value = (await page.getByTestId("record-value").textContent())!;
    expect(name).toBe("_affiliate-portal.partners.domain-gear.example");
    expect(value).toMatch(/^affiliate-portal-verification=/);
    await page.getByRole("button", { name: "Verify domain" }).click();
    await page.getByText("The TXT record was not found at").waitFor();
    await page.screenshot({ path: screenshotPath("portals-domain-pending"), fullPage: true });
    dns.txt.set(name, [value]);
    await page.getByRole("button", { name: "Verify domain" }).click();
    await page.getByText("Domain verified: affiliates find your portal there now.").waitFor();
    await page.getByTestId("domain-verified").waitFor();
    await page.goto("/admin/portals");
    expect(await page.getByText("On your own domain: https://partners.domain-gear.example/").count()).toBe(1);
    await page.screenshot({ path: screenshotPath("portals-domain-verified"), fullPage: true });
    // The first Verify, before the record existed, was answered 422 on purpose.
    expect(errors.unexpected(failedResource(422))).toEqual([]);
  });
});
