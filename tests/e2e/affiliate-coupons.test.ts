import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, menuLink, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A merchant approves a pending affiliate in Chromium; the job after the
// commit creates the campaign's coupon in the store (the simulator), and the
// affiliate's page shows the code.

applyTestEnv();

const chromiumPath = findChromium();

describe.skipIf(skipWithoutChromium(chromiumPath))("automatic coupons in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  const sim = useStoreSimulator();
  useTestDatabase();
  const server = useTestServer();

  it("approving an affiliate creates the coupon in Shopify", async () => {
    sim.reset();
    const shop = await buildShop({ domain: "coupon-e2e.myshopify.com" });
    await getDb().session.create({
      data: {
        id: `offline_${shop.domain}`,
        shop: shop.domain,
        state: "",
        accessToken: sim.accessToken(shop.domain),
        scope: "write_discounts",
      },
    });
    await buildUser(shop.id, { email: "owner@example.com" });
    const campaign = await getDb().campaign.create({
      data: {
        shopId: shop.id,
        name: "Main",
        status: "active",
        isDefault: true,
        couponEnabled: true,
        couponPrefix: "FRIEND-",
        couponDiscountValue: 2000,
      },
    });
    const pending = await getDb().affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: "pat@example.com",
        firstName: "Pat",
        lastName: "Pending",
        referralCode: "PATP",
        status: "pending",
      },
    });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", "owner@example.com");
    await expectPage(page, "/admin/dashboard", "Dashboard");
    await waitForHydration(page);
    await menuLink(page, "Affiliates").click();
    await expectPage(page, "/admin/affiliates", "Affiliates");
    await waitForTableLoaded(page);
    await page
      .getByRole("row", { name: /Pat Pending/ })
      .getByRole("checkbox")
      .check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("1 approved, 0 skipped").waitFor();

    await drainJobs();
    const codes = sim.store.shop(shop.domain).discounts.flatMap((d) => d.codes.map((c) => c.code));
    expect(codes.filter((c) => c.startsWith("FRIEND-"))).toEqual(["FRIEND-PATP"]);
    expect(await getDb().coupon.findMany({ where: { affiliateId: pending.id }, select: { code: true } })).toEqual([
      { code: "FRIEND-PATP" },
    ]);
    await page.goto(`/admin/affiliates/${pending.id}`);
    await page.getByText("FRIEND-PATP").first().waitFor();
    await page.screenshot({ path: screenshotPath("admin-affiliate-auto-coupon"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
  });
});
