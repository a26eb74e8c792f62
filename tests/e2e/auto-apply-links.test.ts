import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { createAffiliateCoupon } from "~/models/marketings/affiliate-coupon.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildAffiliate, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { connectShopToSimulator, useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useAppUrlPort, useTestServer } from "../support/test-server";

// Issue 31, item 2 in a real Chromium: the merchant turns on "apply the
// affiliate's discount through their short link" (and hides the codes); the
// affiliate's short link then redirects through Shopify's
// /discount/{code}?redirect=... path (an affiliate whose code Shopify does not
// have yet keeps the plain link); the affiliate's links page says the link
// applies the discount; an order the store simulator sends (signed
// orders/create) with that code and the click, but no referral-code cart
// attribute, is credited to the affiliate with the auto-apply reason.
// Needs the built app (npm run build).
applyTestEnv();
const port = useAppUrlPort();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer({ port });
const chromiumPath = findChromium();

const SHOP = "auto-gear.myshopify.com";
const PASSWORD = "affiliate password 31b";
const MERCHANT = "owner@auto-gear.example";

describe.skipIf(skipWithoutChromium(chromiumPath))("links that apply the affiliate's discount", () => {
  const browser = useBrowser(chromiumPath);

  it("setting → /r/ goes through /discount/CODE → the order is credited as applied by the link", async () => {
    sim.reset();
    sim.setAppUrl(server.url(""));
    const db = getDb();
    const shop = await db.shop.create({
      data: { domain: SHOP, name: "Auto Gear", url: `https://${SHOP}`, adminEmail: MERCHANT, pricingPlan: "growth" },
    });
    await connectShopToSimulator(sim, SHOP);
    await buildUser(shop.id, { email: MERCHANT });
    const campaign = await db.campaign.create({
      data: {
        shopId: shop.id,
        name: "Main",
        status: "active",
        isDefault: true,
        commissionValue: 1000,
        couponEnabled: true,
        couponPrefix: "FRIEND-",
        couponDiscountValue: 2000,
      },
    });
    const ana = await buildAffiliate(shop.id, campaign.id, {
      status: "approved",
      email: "ana@aff.example",
      referralCode: "ANA",
      password: PASSWORD,
    });
    const ben = await buildAffiliate(shop.id, campaign.id, {
      status: "approved",
      email: "ben@aff.example",
      referralCode: "BEN",
    });
    // Ana's code is created in Shopify (the approval job); Ben's is not yet.
    expect(await createAffiliateCoupon({ affiliateId: ana.id }, db)).toBe("created");
    expect(sim.store.shop(SHOP).discounts.flatMap((d) => d.codes.map((c) => c.code))).toContain("FRIEND-ANA");

    // 1. The merchant turns it on in Settings > Promote link and hides the codes.
    const admin = await browser.newSession(server.url(""));
    await logIn(admin.page, "admin", MERCHANT);
    await expectPage(admin.page, "/admin/dashboard", "Dashboard");
    await admin.page.goto("/admin/settings/promote-link");
    await expectPage(admin.page, "/admin/settings/promote-link", "Promote link");
    await waitForHydration(admin.page);
    await admin.page.getByLabel("Apply the affiliate's discount through their short link").check();
    await admin.page.getByLabel("Still show affiliates their discount code").uncheck();
    await admin.page
      .getByTestId("promote-link-example")
      .getByText(`https://${SHOP}/discount/DISCOUNT?redirect=%2F%3Fref%3DCODE`)
      .waitFor();
    await admin.page.getByRole("button", { name: "Save" }).first().click();
    await admin.page.getByText("Save successful").waitFor();
    await admin.page.screenshot({ path: screenshotPath("settings-promote-link-auto-apply"), fullPage: true });
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).autoApplyDiscount).toBe(true);

    // 2. The short links: Ana's goes through Shopify's discount path, Ben's stays plain.
    const short = (code: string) =>
      `${server.url("")}/r/auto-gear/${code}?to=${encodeURIComponent("/collections/all?sort=price")}&sub_id=blog`;
    const benRes = await fetch(short("BEN"), { redirect: "manual" });
    expect(benRes.status).toBe(302);
    expect(benRes.headers.get("location")).toMatch(
      new RegExp(`^https://${SHOP}/collections/all\\?sort=price&ref=BEN&_aff_click=[A-Za-z0-9_-]+$`),
    );
    const anaRes = await fetch(short("ANA"), { redirect: "manual" });
    expect(anaRes.status).toBe(302);
    const location = new URL(anaRes.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`https://${SHOP}/discount/FRIEND-ANA`);
    expect([...location.searchParams.keys()]).toEqual(["redirect"]);
    expect(location.searchParams.get("redirect")).toMatch(
      /^\/collections\/all\?sort=price&ref=ANA&_aff_click=[A-Za-z0-9_-]+$/,
    );
    expect(await db.click.count({ where: { affiliateId: { in: [ana.id, ben.id] }, subId: "blog" } })).toBe(2);

    // A visitor in Chromium follows the link: the first request to the store is the discount path.
    const { context, page, errors } = await browser.newSession(server.url(""));
    const visitor = await context.newPage();
    const storeRequest = visitor.waitForRequest((r) => new URL(r.url()).host === SHOP);
    await visitor.goto(short("ANA")).catch(() => null);
    const landed = new URL((await storeRequest).url());
    expect(landed.pathname).toBe("/discount/FRIEND-ANA");
    const redirect = new URL(landed.searchParams.get("redirect")!, `https://${SHOP}`);
    expect(redirect.searchParams.get("ref")).toBe("ANA");
    const clickId = redirect.searchParams.get("_aff_click")!;
    expect(await db.click.findUniqueOrThrow({ where: { clickId } })).toMatchObject({
      affiliateId: ana.id,
      subId: "blog",
    });
    await visitor.close();

    // 3. Ana's links page says the link applies her discount; the code is hidden.
    await page.goto(`/portal/auto-gear/login`);
    await page.locator('[name="email"]').fill("ana@aff.example");
    await page.locator('[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/account");
    await page.goto("/account/links");
    await page
      .getByText("Your link applies your discount automatically at checkout: buyers do not need to type a code.")
      .waitFor();
    expect(await page.getByTestId("auto-apply-code").count()).toBe(0);
    expect(await page.getByText("FRIEND-ANA").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("account-links-auto-apply"), fullPage: true });

    // 4. The buyer checks out with the applied code; the cart carries the click
    //    (the storefront script reads _aff_click) but no referral code.
    await sim.store.placeOrder(SHOP, { discountCode: "FRIEND-ANA", clickId });
    await drainJobs();
    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(order).toMatchObject({
      affiliateId: ana.id,
      attributionSource: "coupon",
      clickId,
      subId: "blog",
      attributionReasonKey: "Sales:attributionReason.couponAutoApplied",
    });
    expect(JSON.parse(order.attributionReasonValues)).toEqual({
      who: expect.stringContaining("(ANA)"),
      code: "FRIEND-ANA",
    });

    // 5. The merchant reads why, in their language.
    await admin.page.goto(`/admin/sales/${order.id}`);
    await admin.page.getByText(/their link applied discount code FRIEND-ANA automatically at checkout/).waitFor();
    await admin.page.screenshot({ path: screenshotPath("admin-sale-auto-apply-reason"), fullPage: true });
    expect(errors.unexpected()).toEqual([]);
    expect(admin.errors.unexpected()).toEqual([]);
  }, 240_000);
});
