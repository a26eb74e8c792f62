import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSimulateArgs, referralOrderOptions } from "~/cli/simulate-referral";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { referralRewardCode } from "~/models/referrals/issue-referral-reward.server";
import { expectPage, logIn, waitForHydration, waitForTableLoaded } from "../support/admin-browser";
import { buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { buildReferralShop } from "../support/referrals";
import { advocateCode, applyInviteCode, getShareLink, openInvite } from "../support/referrals-browser";
import { startStorefront, type Storefront } from "../support/storefront";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Refer-a-friend from the link to the reward (issue 13): on the storefront
// page served for the test (the theme embed from extensions/), a customer
// gets a link and a friend applies the code it offers; the store simulator
// places the friend's order with that code and the cart's invite attributes
// and sends its signed webhooks to the app; the merchant sees the referral
// and its checks in the history; after the hold the advocate's reward code
// exists in the simulator's store and the referral shows as rewarded.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "raf-flow.myshopify.com";
const MERCHANT = "merchant@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("refer a friend from link to reward", () => {
  const browser = useBrowser(chromiumPath);
  const sim = useStoreSimulator();
  useTestDatabase();
  const server = useTestServer();
  let storefront: Storefront;

  beforeAll(async () => {
    storefront = await startStorefront({ shopDomain: () => SHOP, appUrl: () => server.url("") });
  });
  afterAll(async () => {
    await storefront?.close();
  });

  it("a friend's order through the link becomes a referral, and the advocate is rewarded after the hold", async () => {
    sim.reset();
    sim.setAppUrl(server.url(""));
    const shop = await buildReferralShop({ domain: SHOP, url: storefront.url, store: sim });
    await buildUser(shop.id, { email: MERCHANT });

    // The advocate, a signed-in customer, gets a link; the friend code is made in the store.
    // A customer of the store (the reward code is made for them in Shopify).
    const stored = sim.store.shop(SHOP).customers[0]!;
    stored.email = "anna@example.com";
    const anna = { id: stored.id, email: stored.email, firstName: "Anna" };
    await getDb().order.create({
      data: {
        shopId: shop.id,
        shopifyGid: "gid://shopify/Order/8001",
        name: "#8001",
        customerEmail: anna.email,
        customerGid: `gid://shopify/Customer/${anna.id}`,
        currency: "USD",
        subtotal: 5000,
        total: 5000,
        placedAt: new Date(Date.now() - 86_400_000),
      },
    });
    storefront.signIn(anna);
    const advocate = await browser.newSession(storefront.url);
    await advocate.page.goto("/");
    const shareUrl = await getShareLink(advocate.page);
    await drainJobs();
    const code = await advocateCode(advocate.page);
    expect(advocate.errors.unexpected()).toEqual([]);
    storefront.signIn(null);

    // The friend opens it, sees the code and applies it.
    const friend = await browser.newSession(storefront.url);
    expect(await openInvite(friend.page, shareUrl)).toBe(code);
    await applyInviteCode(friend.page);
    const token = new URL(shareUrl).searchParams.get("invite")!;
    const device = storefront.cart.attributes._referral_device!;
    expect(storefront.cart).toEqual({
      discountCodes: [code],
      attributes: { _referral_invite: token, _referral_device: device },
    });
    await friend.page.screenshot({ path: screenshotPath("raf-flow-friend-applied") });
    expect(friend.errors.unexpected()).toEqual([]);

    // Checkout: the simulator places the friend's order with the cart's code
    // and attributes, as `npm run simulate -- referral` does, and sends the
    // signed orders/create and orders/paid webhooks to the app.
    const cart = referralOrderOptions(
      parseSimulateArgs([
        "referral",
        "--friend-code",
        storefront.cart.discountCodes[0]!,
        "--invite",
        storefront.cart.attributes._referral_invite!,
        "--device",
        device,
        "--customer",
        "ben.friend@example.net",
      ]).values,
    );
    const placed = await sim.store.placeOrder(SHOP, cart);
    expect(placed.deliveries.map((d) => [d.topic, d.status])).toEqual([
      ["orders/create", 200],
      ["orders/paid", 200],
    ]);
    await drainJobs();
    const orderGid = `gid://shopify/Order/${placed.order.id}`;
    const referral = await getDb().referral.findUniqueOrThrow({
      where: { shopId_orderGid: { shopId: shop.id, orderGid } },
    });
    expect(referral).toMatchObject({
      status: "pending",
      source: "code",
      friendCode: code,
      friendEmail: "ben.friend@example.net",
      deviceId: device,
    });
    expect(referral.holdUntil.getTime()).toBeGreaterThan(Date.now());

    // The merchant, in the same browser, finds it in the history.
    const merchant = await browser.newSession(server.url(""));
    const { page } = merchant;
    await logIn(page, "admin", MERCHANT);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await page.goto("/admin/referrals/history");
    await waitForHydration(page);
    await expectPage(page, "/admin/referrals/history", "Referral history");
    await waitForTableLoaded(page);
    const row = page.locator("tbody tr");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Pending");
    await page.screenshot({ path: screenshotPath("raf-flow-history-pending"), fullPage: true });

    await page.getByRole("link", { name: placed.order.name }).click();
    await expectPage(page, `/admin/referrals/${referral.id}`, placed.order.name);
    await page.getByText(`their friend code ${code} was used at checkout`).waitFor();
    await page.getByText("ben.friend@example.net").waitFor();
    for (const check of [
      "The friend is not the advocate.",
      "This is the friend's first order.",
      "The e-mail addresses are not alike.",
      "No burst from one IP address or device (limit 5 within 60 minutes).",
      "Use of the code matches the advocate's reach.",
      "The order meets the program's rules.",
    ])
      await page.getByText(check).waitFor();
    await page.screenshot({ path: screenshotPath("raf-flow-detail-pending"), fullPage: true });

    // The hold is over: its end and the queued reward job moved to the past.
    const past = new Date(Date.now() - 1000);
    await getDb().referral.update({ where: { id: referral.id }, data: { holdUntil: past } });
    const moved = await getDb().job.updateMany({
      where: { type: "referrals.reward", status: "queued" },
      data: { runAt: past },
    });
    expect(moved.count).toBe(1);
    await drainJobs();

    const rewardCode = referralRewardCode(referral.id);
    const discounts = sim.store.shop(SHOP).discounts.filter((d) => d.codes.some((c) => c.code === rewardCode));
    expect(discounts).toHaveLength(1);
    expect(discounts[0]).toMatchObject({ usageLimit: 1 });
    expect(await getDb().referral.findUniqueOrThrow({ where: { id: referral.id } })).toMatchObject({
      status: "rewarded",
      rewardCode,
    });
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "advocate.referral_reward" } });
    expect(mail.toAddress).toBe("anna@example.com");
    expect(mail.text).toContain(rewardCode);

    await page.goto("/admin/referrals/history?status=rewarded");
    await waitForHydration(page);
    await waitForTableLoaded(page);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Rewarded");
    await page.screenshot({ path: screenshotPath("raf-flow-history-rewarded"), fullPage: true });
    await page.getByRole("link", { name: placed.order.name }).click();
    await expectPage(page, `/admin/referrals/${referral.id}`, placed.order.name);
    await page.getByText(rewardCode).waitFor();
    await page.screenshot({ path: screenshotPath("raf-flow-detail-rewarded"), fullPage: true });
    expect(merchant.errors.unexpected()).toEqual([]);
  });
});
