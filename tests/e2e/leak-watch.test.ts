import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { enqueueJob } from "~/models/jobs/enqueue.server";
import { drainJobs } from "~/worker/job-registry.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildCampaign, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { connectShopToSimulator, useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useAppUrlPort, useTestServer } from "../support/test-server";

// Leak watch (ADR 051) in a real Chromium: a leaked-code burst from the
// store simulator (orders with the affiliate's code and no click or cart
// attribute) → the commissions are held and the reason shown to the merchant
// (Sales › Leaked codes) and the affiliate (their sales) → the merchant
// rotates the code behind a confirmation → the simulator's store has the new
// code and the old one ended. Release is covered in tests/db/leak-watch.test.ts.
applyTestEnv();
const port = useAppUrlPort();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer({ port });
const chromiumPath = findChromium();

const SHOP = "leak-watch.myshopify.com";
const MERCHANT = "owner@leak-watch.example";
const PASSWORD = "affiliate password 46";

describe.skipIf(skipWithoutChromium(chromiumPath))("leak watch", () => {
  const browser = useBrowser(chromiumPath);

  it("burst of code-only orders → held with the reason → rotate → new code in the store, old one ended", async () => {
    sim.reset();
    sim.setAppUrl(server.url(""));
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Leak Gear", url: `https://${SHOP}`, adminEmail: MERCHANT, pricingPlan: "growth" },
    });
    await connectShopToSimulator(sim, SHOP);
    await buildUser(shop.id, { email: MERCHANT });
    const campaign = await buildCampaign(shop.id, { name: "Standard" });
    await db.campaign.update({
      where: { id: campaign.id },
      data: {
        isDefault: true,
        commissionValue: 1000,
        couponEnabled: true,
        couponPrefix: "",
        couponDiscountType: "percentage",
        couponDiscountValue: 1000,
      },
    });
    const affiliate = await buildAffiliate(shop.id, campaign.id, {
      status: "approved",
      email: "lea@aff.example",
      referralCode: "LEA10",
      password: PASSWORD,
    });
    await enqueueJob(db, "coupons.create", { affiliateId: affiliate.id });
    await drainJobs();

    // The burst: six orders with the code, no click, no cart attribute.
    for (let i = 0; i < 6; i++) await sim.store.placeOrder(SHOP, { discountCode: "LEA10" });
    await drainJobs();
    const flag = await db.leakFlag.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(await db.order.count({ where: { shopId: shop.id, leakHoldId: flag.id } })).toBe(6);

    // The merchant sees the flag with its reason and orders.
    const admin = await browser.newSession(server.url(""));
    await logIn(admin.page, "admin", MERCHANT);
    await expectPage(admin.page, "/admin/dashboard", "Dashboard");
    await admin.page.goto("/admin/sales/leaks");
    await waitForHydration(admin.page);
    const card = admin.page.getByTestId("leak-flag-LEA10");
    await card.waitFor();
    await expect
      .poll(() => card.getByTestId("leak-reason").textContent())
      .toBe("6 orders used LEA10 within 24 h with no other signal (100 % of the affiliate's 6 orders).");
    await admin.page.screenshot({ path: screenshotPath("leak-watch-open"), fullPage: true });

    // The affiliate sees the hold on their sales.
    const aff = await browser.newSession(server.url(""));
    await aff.page.goto(`/portal/${SHOP.replace(".myshopify.com", "")}/login`);
    await aff.page.locator('[name="email"]').fill("lea@aff.example");
    await aff.page.locator('[name="password"]').fill(PASSWORD);
    await aff.page.getByRole("button", { name: "Log in" }).click();
    await aff.page.waitForURL("**/account");
    await aff.page.goto("/account/sales");
    await expect.poll(() => aff.page.getByTestId("sale-held").count()).toBe(6);
    expect(await aff.page.getByTestId("sale-held").first().textContent()).toBe(
      "On hold: code LEA10 was used without a visit through your link.",
    );
    await aff.page.screenshot({ path: screenshotPath("leak-watch-account"), fullPage: true });

    // Rotate, behind its confirmation.
    await card.getByRole("button", { name: "Rotate the code" }).click();
    const dialog = admin.page.getByRole("dialog");
    await dialog.getByText("A new code for Test Affiliate").waitFor();
    await admin.page.screenshot({ path: screenshotPath("leak-watch-confirm"), fullPage: true });
    await dialog.getByRole("button", { name: "Rotate the code" }).click();
    await expect
      .poll(async () => (await db.leakFlag.findUniqueOrThrow({ where: { id: flag.id } })).status)
      .toBe("rotated");
    await drainJobs();
    const rotated = await db.leakFlag.findUniqueOrThrow({ where: { id: flag.id } });
    expect(rotated.rotation).toBe("done");
    const discounts = sim.store.shop(SHOP).discounts;
    const byCode = (code: string) => discounts.find((d) => d.codes.some((c) => c.code === code));
    expect(byCode(rotated.newCode!)?.endsAt).toBeNull();
    expect(byCode("LEA10")?.endsAt).not.toBeNull();
    await admin.page.reload();
    await waitForHydration(admin.page);
    await expect
      .poll(() => admin.page.getByTestId("leak-rotation").textContent())
      .toBe(`${rotated.newCode} was created in Shopify and LEA10 deactivated.`);
    await admin.page.screenshot({ path: screenshotPath("leak-watch-rotated"), fullPage: true });
    expect(admin.errors.unexpected()).toEqual([]);
    expect(aff.errors.unexpected()).toEqual([]);
  }, 240_000);
});
