import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import {
  dashboardTiles,
  expectPage,
  logIn,
  menuLink,
  waitForHydration,
  waitForTableLoaded,
} from "../support/admin-browser";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { buildShop, buildUser } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureWith, orderStatusUrl, webhookHeaders } from "../support/webhooks";

// One merchant's day in a real Chromium, across the admin: create a campaign
// with two MLM levels, approve a pending affiliate, see a simulated order
// (a signed orders/create webhook, processed by the job worker) appear in
// Sales with its commission lines per level, approve the sale, and see the
// dashboard tiles change. Needs the built app (npm run build).

applyTestEnv();
const chromiumPath = findChromium();
const EMAIL = "owner@journey.example";

describe.skipIf(skipWithoutChromium(chromiumPath))("a merchant's day in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("campaign with two MLM levels → approve an affiliate → an order arrives → approve the sale → the dashboard changes", async () => {
    const db = getDb();
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));

    await logIn(page, "admin", EMAIL);
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    expect(await dashboardTiles(page)).toMatchObject({ revenue: "$0.00", commission: "$0.00", sales: "0" });

    // 1. A campaign: 10 % to the affiliate, 5 % of the sale to level 2, 20 % of the commission to level 3.
    await menuLink(page, "Campaigns").click();
    await expectPage(page, "/admin/campaigns", "Campaigns");
    await page.getByRole("link", { name: "Create campaign" }).first().click();
    await expectPage(page, "/admin/campaigns/new", "New campaign");
    await waitForHydration(page);
    await page.getByLabel("Campaign name").fill("Partners");
    await page.getByLabel("State").selectOption("active");
    await page.getByLabel("Commission", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Add level" }).click();
    await page.getByRole("button", { name: "Add level" }).click();
    await page.getByLabel("Level 2 rate").fill("5");
    await page.getByLabel("Level 3 rate").fill("20");
    await page.getByLabel("Level 3 is a percent of").selectOption("percent_of_commission");
    await page.getByRole("button", { name: "Save", exact: true }).first().click();
    await page.getByText("Campaign created").waitFor();
    const campaign = await db.campaign.findFirstOrThrow({ where: { shopId: shop.id }, include: { levels: true } });
    expect(campaign.levels).toHaveLength(2);

    // Affiliates on it: Cara recruited Ben, Ben recruited Pat, who signed up and waits for approval.
    const affiliate = (code: string, status: string, parentId: string | null) =>
      db.affiliate.create({
        data: {
          shopId: shop.id,
          campaignId: campaign.id,
          parentId,
          email: `${code.toLowerCase()}@aff.example`,
          firstName: code,
          lastName: "Journey",
          status,
          referralCode: code,
        },
      });
    const cara = await affiliate("CARA", "approved", null);
    const ben = await affiliate("BEN", "approved", cara.id);
    const pat = await affiliate("PAT", "pending", ben.id);
    await db.coupon.create({ data: { shopId: shop.id, affiliateId: pat.id, code: "PAT10" } });

    // 2. Approve Pat from the Pending tab.
    await menuLink(page, "Affiliates").click();
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await page.getByRole("tab", { name: "Pending" }).click();
    await page.waitForURL((url) => url.searchParams.get("status") === "pending");
    await page.getByRole("row", { name: /CARA Journey/ }).waitFor({ state: "detached" });
    await waitForTableLoaded(page);
    const row = page.getByRole("row", { name: /PAT Journey/ });
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("1 approved, 0 skipped").waitFor();
    expect((await db.affiliate.findUniqueOrThrow({ where: { id: pat.id } })).status).toBe("approved");

    // 3. A customer orders with Pat's coupon; Shopify sends the webhook.
    const body = fixtureWith("orders_create.json", (o) => {
      o.cancelled_at = null;
      o.order_status_url = orderStatusUrl(shop.domain);
      o.created_at = o.processed_at = new Date().toISOString();
      o.discount_codes = [{ code: "pat10", amount: "10.00", type: "fixed_amount" }];
    });
    const res = await new HttpClient(server.url).request("/webhooks", {
      method: "POST",
      body,
      headers: webhookHeaders("orders/create", shop.domain, body),
    });
    expect(res.status).toBe(200);
    await drainJobs();
    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id }, include: { commissions: true } });
    expect(order.affiliateId).toBe(pat.id);
    expect(order.commissions.map((c) => [c.level, c.affiliateId]).sort()).toEqual([
      [1, pat.id],
      [2, ben.id],
      [3, cara.id],
    ]);

    // 4. It appears in Sales, pending, with why it was credited and a line per level; approve it.
    await menuLink(page, "Sales").click();
    await expectPage(page, "/admin/sales", "Sales");
    await page.getByRole("link", { name: order.name }).click();
    await expectPage(page, `/admin/sales/${order.id}`, order.name);
    await waitForHydration(page);
    await page.getByText(/PAT10/).first().waitFor();
    for (const level of [1, 2, 3]) await page.getByText(`Level ${level}`, { exact: true }).first().waitFor();
    await page.screenshot({ path: screenshotPath("journey-sale-pending"), fullPage: true });
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("Sale approved").waitFor();
    expect((await db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("approved");

    // 5. The dashboard counts the sale, its revenue and its commissions.
    await menuLink(page, "Dashboard")
      .or(page.getByRole("link", { name: "Dashboard" }))
      .first()
      .click();
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    const commission = order.commissions.reduce((sum, c) => sum + c.amount, 0);
    const money = (minor: number) => `$${(minor / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
    await expect
      .poll(() => dashboardTiles(page))
      .toMatchObject({ revenue: money(order.subtotal), commission: money(commission), sales: "1" });
    await page.screenshot({ path: screenshotPath("journey-dashboard-after"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
