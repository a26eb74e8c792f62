import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { refreshRollup } from "~/models/dashboard/rollup.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser, type BrowserSession } from "../support/browser";
import { HttpClient } from "../support/http-client";
import { dashboardTiles, expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";

// The dashboard in a real Chromium: tiles for a preset, switching presets, a
// new order (a signed orders/create webhook processed by the job worker)
// changing the tiles after a reload, and a dismissed banner staying
// dismissed. Needs the built app (npm run build).

applyTestEnv();
const chromiumPath = findChromium();
const EMAIL = "owner@dash.example";
const DAY = 86_400_000;

describe.skipIf(skipWithoutChromium(chromiumPath))("admin dashboard in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();
  const newSession = (): Promise<BrowserSession> => browser.newSession(server.url(""));

  it("shows tiles per preset, counts a new order after reload, and remembers a dismissed banner", async () => {
    const db = getDb();
    const shop = await buildShop();
    await db.shop.update({ where: { id: shop.id }, data: { timezone: "America/New_York" } });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id, { referralCode: "DASHA" });
    const now = Date.now();
    // Three clicks today and two 40 days ago; one sale 40 days ago.
    await db.click.createMany({
      data: [0, 1, 2, 40 * DAY, 40 * DAY + 1].map((ago, i) => ({
        shopId: shop.id,
        affiliateId: affiliate.id,
        clickId: `e2e-${i}`,
        landingUrl: "https://x",
        createdAt: new Date(now - ago - 60_000),
      })),
    });
    const old = await db.order.create({
      data: {
        shopId: shop.id,
        shopifyGid: "gid://shopify/Order/1",
        name: "#1",
        currency: "USD",
        subtotal: 10_000,
        total: 10_000,
        status: "approved",
        affiliateId: affiliate.id,
        placedAt: new Date(now - 40 * DAY),
      },
    });
    await db.commission.create({
      data: {
        shopId: shop.id,
        orderId: old.id,
        affiliateId: affiliate.id,
        amount: 1_000,
        currency: "USD",
        status: "approved",
      },
    });
    await refreshRollup(db, shop.id, new Date(now));

    const { page, errors } = await newSession();
    await page.goto("/login");
    await waitForHydration(page);
    await page.locator('input[name="email"]').fill(EMAIL);
    await page.locator('input[name="password"]').fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await waitForHydration(page);

    // Default preset: last 30 days (three clicks, no sales).
    expect(await dashboardTiles(page)).toEqual({ revenue: "$0.00", commission: "$0.00", sales: "0", clicks: "3" });
    await page.locator("[data-chart-points] svg").first().waitFor();
    await page.screenshot({ path: screenshotPath("dashboard-last30"), fullPage: true });

    await page.locator("#preset").selectOption("all");
    await page.waitForURL((url) => url.searchParams.get("preset") === "all");
    await waitForHydration(page);
    await expect
      .poll(() => dashboardTiles(page))
      .toEqual({ revenue: "$100.00", commission: "$10.00", sales: "1", clicks: "5" });
    // The chart is in the server's HTML; pointing at its first day shows that day's revenue.
    const plot = page.getByRole("group", { name: "Revenue" });
    await plot.hover({ position: { x: 2, y: 100 } });
    await expect.poll(() => plot.locator(".line-chart-tip strong").textContent()).toBe("$100.00");
    await page.screenshot({ path: screenshotPath("dashboard-all-days"), fullPage: true });
    // From the keyboard: End goes to the last day, which had none.
    await page.mouse.move(0, 0);
    await plot.focus();
    await page.keyboard.press("End");
    await expect.poll(() => plot.locator(".line-chart-tip strong").textContent()).toBe("$0.00");

    await page.locator("#preset").selectOption("today");
    await page.waitForURL((url) => url.searchParams.get("preset") === "today");
    await waitForHydration(page);
    await expect.poll(async () => (await dashboardTiles(page)).sales).toBe("0");

    // A new order arrives as Shopify sends it, credited by referral code.
    const body = fixtureWith("orders_create.json", (o) => {
      o.cancelled_at = null;
      o.order_status_url = orderStatusUrl(shop.domain);
      o.created_at = o.processed_at = new Date().toISOString();
      o.note_attributes = [{ name: "_affiliate_ref", value: "DASHA" }];
    });
    const res = await new HttpClient(server.url).request("/webhooks", {
      method: "POST",
      body,
      headers: webhookHeaders("orders/create", shop.domain, body),
    });
    expect(res.status).toBe(200);
    await drainJobs();
    const order = await db.order.findFirstOrThrow({
      where: { shopId: shop.id, affiliateId: affiliate.id, NOT: { id: old.id } },
    });

    await page.reload();
    await waitForHydration(page);
    const after = await dashboardTiles(page);
    expect(after.sales).toBe("1");
    expect(after.revenue).toBe(`$${(order.subtotal / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`);
    expect(after.commission).not.toBe("$0.00");
    await page.screenshot({ path: screenshotPath("dashboard-today-after-order"), fullPage: true });

    // The pending sale shows in the approvals card, linking to the filtered list.
    await expect.poll(() => page.locator("#pending-sales").innerText()).toBe("1 sale waiting for approval");
    expect(await page.locator("#pending-sales").getAttribute("href")).toBe("/admin/sales?status=pending");
    expect(await page.locator("#link-signup").inputValue()).toMatch(/\/portal\/[a-z0-9-]+\/signup$/);

    // The shop has a campaign: no "create a campaign" welcome. Dismissing a
    // banner is remembered across a reload.
    expect(await page.locator('[data-banner="show.dashboard"]').count()).toBe(0);
    const featured = page.locator('[data-banner="show.featuredApp"]');
    await featured.waitFor();
    await featured.getByRole("button", { name: /dismiss/i }).click();
    await expect.poll(() => featured.count()).toBe(0);
    await page.reload();
    await waitForHydration(page);
    // The order came by link, so the embed has shown it works: its reminder is gone (issue 29).
    await page.locator('[data-banner="show.recommendationApps"]').waitFor();
    expect(await page.locator('[data-banner="show.appEmbed"]').count()).toBe(0);
    expect(await featured.count()).toBe(0);
    await page.screenshot({ path: screenshotPath("dashboard-banner-dismissed"), fullPage: true });

    // An unknown preset is a clear 422 with a message, not a crash.
    const bad = await page.goto("/admin/dashboard?preset=forever");
    expect(bad?.status()).toBe(422);

    expect(errors.unexpected(/status of 422/)).toEqual([]);
  });

  it("welcomes a shop without campaigns, opens links leaving the app in a new tab, and leads Custom domain to Settings › Marketings", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const { context, page, errors } = await newSession();
    // The App Store is not reachable from here; answer for it so the new tab has a page.
    await context.route("https://apps.shopify.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<title>App Store</title>" }),
    );
    await logIn(page, "admin", EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);

    const welcome = page.locator('[data-banner="show.dashboard"]');
    await welcome.waitFor();
    await page.screenshot({ path: screenshotPath("dashboard-new-shop"), fullPage: true });

    // Every link that leaves the app opens a new tab, and hands it neither our window nor our address.
    const outbound = await page
      .locator('a[href^="http"], a[href^="//"]')
      .evaluateAll((links) =>
        links.map((a) => [a.getAttribute("href"), a.getAttribute("target"), a.getAttribute("rel")]),
      );
    expect(outbound.length).toBeGreaterThan(0);
    for (const [href, target, rel] of outbound)
      expect([href, target, rel]).toEqual([href, "_blank", "noopener noreferrer"]);
    const [store] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("link", { name: "Browse apps", exact: true }).click(),
    ]);
    await store.waitForLoadState();
    expect(store.url()).toBe("https://apps.shopify.com/");
    expect(await store.evaluate(() => window.opener)).toBeNull();
    await store.close();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");

    // The custom domain is set under Settings > Marketings, so that is where its card leads.
    const customDomain = page
      .locator("div")
      .filter({ has: page.getByRole("heading", { name: "Custom domain", exact: true }) })
      .last();
    await customDomain.getByRole("link", { name: "Open", exact: true }).click();
    await expectPage(page, "/admin/settings/marketings", "Marketings");

    // Once a campaign exists, the banner asking for one is gone.
    await buildCampaign(shop.id);
    await page.goto("/admin/dashboard");
    await waitForHydration(page);
    await page.locator('[data-banner="show.appEmbed"]').waitFor();
    expect(await welcome.count()).toBe(0);
    expect(errors.unexpected()).toEqual([]);
  });

  it("shows staff only the links and promos of areas they may open", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: "staff@dash.example", permissions: ["affiliates"] });
    const { page, errors } = await newSession();
    await logIn(page, "staff", "staff@dash.example");
    await expectPage(page, "/staff/dashboard", "Dashboard");
    await waitForHydration(page);
    await page.locator('[data-banner="show.appEmbed"]').waitFor();
    await page.screenshot({ path: screenshotPath("dashboard-staff-affiliates-only"), fullPage: true });

    const areas = await page
      .locator('a[href^="/staff/"]')
      .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname.split("/")[2]));
    // Help (the "Help docs" button) is open to every staff member.
    expect(new Set(areas)).toEqual(new Set(["dashboard", "affiliates", "contact-us", "help"]));
    await page.locator("#pending-affiliates").waitFor();
    expect(await page.locator("#pending-sales, #pending-commissions").count()).toBe(0);
    // No shop campaign yet, but this user cannot create one: no welcome. No
    // marketplace (settings), referrals or feature promos either.
    for (const hidden of ['[data-banner="show.dashboard"]', '[data-banner="show.featuredApp"]']) {
      expect(await page.locator(hidden).count(), hidden).toBe(0);
    }
    for (const heading of ["Get found by affiliates", "Features"]) {
      expect(await page.getByRole("heading", { name: heading, exact: true }).count(), heading).toBe(0);
    }
    await page.getByRole("heading", { name: "Helpful Links", exact: true }).waitFor();
    expect(errors.unexpected()).toEqual([]);
  });
});
