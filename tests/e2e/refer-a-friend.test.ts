import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { buildReferralShop } from "../support/referrals";
import { advocateCode, applyInviteCode, askLinkByEmail, openInvite } from "../support/referrals-browser";
import { startStorefront, type Storefront } from "../support/storefront";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Refer-a-friend on a storefront page in Chromium: the theme app embed's
// Liquid, script and stylesheet from extensions/affiliate-tracking, on a
// page served for the test, talking to the app through a signed app proxy.
// A customer gets their link; the friend code is made in the store
// simulator; a friend opens the link, sees the code and applies it, and the
// cart carries the invitation for the order.

applyTestEnv();

const chromiumPath = findChromium();
const SHOP = "raf-e2e.myshopify.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("refer a friend on the storefront", () => {
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

  it("a customer gets a share link, and a friend who opens it gets the code on their cart", async () => {
    sim.reset();
    await buildReferralShop({
      domain: SHOP,
      url: storefront.url,
      store: sim,
      program: { widget: { color: "#2d6a4f" } },
    });

    // The advocate.
    const advocate = await browser.newSession(storefront.url);
    await advocate.page.goto("/");
    await advocate.page.getByRole("button", { name: "Refer a friend" }).waitFor();
    await advocate.page.screenshot({ path: screenshotPath("raf-storefront-button") });
    // A guest is not told anyone's link: it goes to the address typed.
    await askLinkByEmail(advocate.page, "anna@example.com");
    await advocate.page.screenshot({ path: screenshotPath("raf-storefront-link-sent") });
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { kind: "advocate.share_link" } });
    expect(mail.toAddress).toBe("anna@example.com");
    const shareUrl = /https?:\/\/\S+\?invite=[a-z2-9]{10}/.exec(mail.text)![0];
    expect(shareUrl).toMatch(new RegExp(`^${storefront.url}/\\?invite=[a-z2-9]{10}$`));
    await drainJobs(); // referrals.friend-code: the code in Shopify
    const code = (await getDb().referralAdvocate.findFirstOrThrow()).friendCode!;
    expect(code).toMatch(/^FRIEND-[A-Z2-9]{8}$/);
    expect(sim.store.shop(SHOP).discounts.filter((d) => d.codes.some((c) => c.code === code))).toHaveLength(1);
    // Escape closes the panel and gives the focus back to the button.
    await advocate.page.keyboard.press("Escape");
    await expect.poll(() => advocate.page.getByRole("dialog").count()).toBe(0);
    expect(await advocate.page.evaluate(() => document.activeElement?.className)).toBe("raf-launcher");
    expect(advocate.errors.unexpected()).toEqual([]);

    // The friend.
    const friend = await browser.newSession(storefront.url);
    expect(await openInvite(friend.page, shareUrl)).toBe(code);
    const popup = friend.page.getByRole("dialog");
    await popup.getByRole("heading", { name: "A friend sent you a discount" }).waitFor();
    await popup.getByText("10% off").waitFor();
    // The focus stays in the popup.
    for (let i = 0; i < 4; i++) await friend.page.keyboard.press("Tab");
    expect(await friend.page.evaluate(() => Boolean(document.activeElement?.closest("#raf-invite")))).toBe(true);
    await friend.page.screenshot({ path: screenshotPath("raf-storefront-friend-popup") });
    await applyInviteCode(friend.page);
    expect(new URL(friend.page.url()).pathname).toBe("/");
    expect(new URL(friend.page.url()).search).toBe("");
    expect(storefront.cart.discountCodes).toEqual([code]);
    const token = new URL(shareUrl).searchParams.get("invite")!;
    expect(storefront.cart.attributes).toEqual({
      _referral_invite: token,
      _referral_device: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
    });
    await friend.page.screenshot({ path: screenshotPath("raf-storefront-friend-applied") });
    const visits = await getDb().referralVisit.findMany();
    expect(visits).toHaveLength(1);
    expect(visits[0]!.deviceId).toBe(storefront.cart.attributes._referral_device);
    expect(friend.errors.unexpected()).toEqual([]);

    // The advocate, signed in to the shop: recognized by the widget, and their own page.
    const anna = { id: "7001", email: "anna@example.com", firstName: "Anna" };
    await getDb().order.create({
      data: {
        shopId: (await getDb().shop.findUniqueOrThrow({ where: { domain: SHOP } })).id,
        shopifyGid: "gid://shopify/Order/5001",
        name: "#5001",
        customerEmail: anna.email,
        customerGid: `gid://shopify/Customer/${anna.id}`,
        currency: "USD",
        subtotal: 12900,
        total: 12900,
        placedAt: new Date(),
      },
    });
    storefront.signIn(anna);
    const again = await browser.newSession(storefront.url);
    await again.page.goto("/");
    await again.page.getByRole("button", { name: "Refer a friend" }).click();
    await expect.poll(() => again.page.getByLabel("Your share link").inputValue()).toBe(shareUrl);
    expect(await advocateCode(again.page)).toBe(code);
    await again.page.screenshot({ path: screenshotPath("raf-storefront-link") });
    await again.page.goto("/apps/affiliate/referrals/account");
    await again.page.getByRole("heading", { name: "Refer a friend" }).waitFor();
    expect(await again.page.getByLabel("Your share link").inputValue()).toBe(shareUrl);
    await again.page.getByText("No friend has used your link yet.").waitFor();
    await again.page.screenshot({ path: screenshotPath("raf-storefront-customer-page"), fullPage: true });
    storefront.signIn(null);
    expect(again.errors.unexpected()).toEqual([]);
  });
});
