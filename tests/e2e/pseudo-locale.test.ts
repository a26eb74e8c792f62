import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { hashPassword } from "~/models/auth/password.server";
import { seedDemoCreatives } from "~/models/creatives/demo-creatives.server";
import { logIn, waitForHydration } from "../support/admin-browser";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { failedResource, findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Every admin and affiliate screen in the pseudo-locale (en-XA: English with
// accents, about 40 % longer, each text in brackets), in Chromium at a
// laptop's width. A screen fails when the page scrolls sideways or when an
// element clips text it was given (the text is wider than the box and the
// box hides the rest). The screenshots (tests/.artifacts/screenshots/
// pseudo-*.png) show the rest: a "[" without its "]" is cut text, and plain
// English among the accented text never went through i18next.
// The admin's login pages are left out: without a shop they are English.
// Creatives' files go to a folder of their own.
applyTestEnv({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "pseudo-locale-")) });
const chromiumPath = findChromium();
const EMAIL = "owner@pseudo.example";
const AFFILIATE_PASSWORD = "affiliate password 1";

interface Clipped {
  tag: string;
  className: string;
  text: string;
}

/** Layout problems of the page as rendered. */
async function layoutProblems(page: Page): Promise<{ scrollsSideways: boolean; clipped: Clipped[] }> {
  return page.evaluate(() => {
    const clipped: { tag: string; className: string; text: string }[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      if (!el.offsetParent && getComputedStyle(el).position !== "fixed") continue; // not rendered
      const text = (el.innerText ?? "").trim();
      if (!text) continue;
      const style = getComputedStyle(el);
      const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
      // Visually hidden labels for screen readers are 1px boxes on purpose.
      if (el.clientWidth <= 1 || !hides) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        clipped.push({
          tag: el.tagName.toLowerCase(),
          className: el.className.toString().slice(0, 80),
          text: text.slice(0, 80),
        });
      }
    }
    return { scrollsSideways: document.documentElement.scrollWidth > window.innerWidth + 1, clipped };
  });
}

describe.skipIf(skipWithoutChromium(chromiumPath))("the pseudo-locale on every screen", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  async function seed() {
    const shop = await buildShop({ language: "pseudo", pricingPlan: "pro" });
    await buildUser(shop.id, { email: EMAIL });
    const campaign = await buildCampaign(shop.id, { name: "Spring" });
    await getDb().campaign.update({ where: { id: campaign.id }, data: { isDefault: true } });
    const affiliate = await buildAffiliate(shop.id, campaign.id, { referralCode: "LENA", email: "lena@aff.example" });
    await getDb().affiliate.update({
      where: { id: affiliate.id },
      data: { passwordHash: await hashPassword(AFFILIATE_PASSWORD), language: "pseudo", firstName: "Lena" },
    });
    const recruit = await buildAffiliate(shop.id, campaign.id, { referralCode: "OMAR" });
    await getDb().affiliate.update({ where: { id: recruit.id }, data: { parentId: affiliate.id } });
    await getDb().coupon.create({ data: { shopId: shop.id, affiliateId: affiliate.id, code: "LENA10" } });
    const order = await buildOrder(shop.id, { name: "#1001", affiliateId: affiliate.id, subtotal: 12_000 });
    await buildCommission(shop.id, order.id, affiliate.id, { amount: 1200 });
    const payout = await getDb().payout.create({
      data: {
        shopId: shop.id,
        affiliateId: affiliate.id,
        amount: 5000,
        currency: "USD",
        status: "paid",
        paidAt: new Date(),
      },
    });
    const endpoint = await getDb().webhookEndpoint.create({
      data: {
        shopId: shop.id,
        url: "https://hooks.example.com/affiliates",
        description: "CRM",
        eventTypes: JSON.stringify(["affiliate.created", "payout.paid"]),
        secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=",
      },
    });
    await getDb().webhookDelivery.create({
      data: {
        shopId: shop.id,
        endpointId: endpoint.id,
        eventType: "affiliate.created",
        payload: JSON.stringify({ type: "affiliate.created", timestamp: new Date().toISOString(), data: {} }),
        status: "failed",
        attempts: 1,
        lastStatusCode: 500,
        attemptsLog: { create: { number: 1, durationMs: 12, statusCode: 500, ok: false, responseExcerpt: "down" } },
      },
    });
    await seedDemoCreatives(shopDb(getDb(), shop.id), shop, campaign.id);
    const creative = await getDb().creative.findFirstOrThrow({ where: { shopId: shop.id, kind: "image" } });
    return { shop, campaign, affiliate, order, payout, endpoint, creative };
  }

  // Screens of the sweep by their document title: every screen has its own
  // (a third entry names the screen a path shows again, with another filter
  // or tab), and every page exactly one <main> landmark.
  const titles = new Map<string, string>();

  async function landmarkAndTitleProblems(page: Page, path: string, name: string, sameScreenAs?: string) {
    const problems: string[] = [];
    const { title, mains } = await page.evaluate(() => ({
      title: document.title,
      mains: document.querySelectorAll("main, [role=main]").length,
    }));
    if (mains !== 1) problems.push(`${path}: ${mains} <main> landmarks`);
    // The screen's own part is translated (bracketed in the pseudo-locale).
    if (!/^\[[^\]]+\]/.test(title)) problems.push(`${path}: title "${title}" is not translated`);
    if (sameScreenAs) {
      if (title !== titles.get(sameScreenAs)) problems.push(`${path}: title "${title}" differs from ${sameScreenAs}'s`);
    } else {
      const other = [...titles].find(([, seen]) => seen === title)?.[0];
      if (other) problems.push(`${path}: title "${title}" is ${other}'s too`);
      titles.set(name, title);
    }
    return problems;
  }

  async function sweep(page: Page, paths: ([string, string] | [string, string, string])[], hydrate: boolean) {
    const problems: string[] = [];
    for (const [name, path, sameScreenAs] of paths) {
      const response = await page.goto(path);
      // An invalid reset link answers 400 with its own screen, which is checked too.
      expect(response?.status(), path).toBe(path.includes("token=nope") ? 400 : 200);
      if (hydrate) await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.lang), path).toBe("en-XA");
      await page.screenshot({ path: screenshotPath(`pseudo-${name}`), fullPage: true });
      const { scrollsSideways, clipped } = await layoutProblems(page);
      if (scrollsSideways) problems.push(`${path}: the page scrolls sideways`);
      for (const c of clipped) problems.push(`${path}: <${c.tag} class="${c.className}"> clips "${c.text}"`);
      problems.push(...(await landmarkAndTitleProblems(page, path, name, sameScreenAs)));
    }
    return problems;
  }

  // The admin's screens in three parts, each in its own session, so that one
  // part stays well inside the test timeout when two browser files share the
  // machine (the whole sweep in one test took over 60 s there). The parts run
  // in order, so the titles seen by an earlier part are checked by a later one.
  async function adminSweep(paths: (ids: Awaited<ReturnType<typeof seed>>) => Parameters<typeof sweep>[1]) {
    const ids = await seed();
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    expect(await sweep(page, paths(ids), true)).toEqual([]);
    expect(errors.unexpected()).toEqual([]);
  }

  it("admin screens: the dashboard, campaigns, affiliates, sales and payouts", () =>
    adminSweep(({ campaign, affiliate, order, payout }) => [
      ["admin-dashboard", "/admin/dashboard"],
      ["admin-campaigns", "/admin/campaigns"],
      ["admin-campaign-new", "/admin/campaigns/new"],
      ["admin-campaign", `/admin/campaigns/${campaign.id}`],
      ["admin-affiliates", "/admin/affiliates"],
      ["admin-affiliate", `/admin/affiliates/${affiliate.id}`],
      ["admin-sales", "/admin/sales"],
      ["admin-sale", `/admin/sales/${order.id}`],
      ["admin-payouts", "/admin/payouts"],
      ["admin-payout", `/admin/payouts/${payout.id}`],
      // Nothing pending for this affiliate: the list of their payouts.
      ["admin-payouts-pending", `/admin/payouts/pending/${affiliate.id}`, "admin-payouts"],
      ["admin-payouts-paid", "/admin/payouts?status=paid", "admin-payouts"],
    ]));

  it("admin screens: portals, referrals, bonuses, creatives and e-mails", () =>
    adminSweep(({ creative }) => [
      ["admin-portals", "/admin/portals"],
      ["admin-portal-landing", "/admin/portals/landing"],
      ["admin-portal-signup", "/admin/portals/signup"],
      ["admin-referrals", "/admin/referrals"],
      ["admin-referrals-history", "/admin/referrals/history"],
      ["admin-bonuses", "/admin/bonuses"],
      ["admin-bonus-new", "/admin/bonuses/new"],
      ["admin-creatives", "/admin/creatives"],
      ["admin-creative", `/admin/creatives/${creative.id}`],
      ["admin-creative-new", "/admin/creatives/new?kind=video"],
      ["admin-mails", "/admin/mails"],
      ["admin-mails-log", "/admin/mails?tab=log", "admin-mails"],
      ["admin-mails-editor", "/admin/mails/affiliate.commission_reversed"],
    ]));

  it("admin screens: settings, plans, contact and the rest", () =>
    adminSweep(({ endpoint }) => [
      ["admin-settings", "/admin/settings"],
      ["admin-settings-general", "/admin/settings/general"],
      ["admin-settings-translations", "/admin/settings/translations"],
      ["admin-settings-staff", "/admin/settings/staff"],
      ["admin-settings-payment", "/admin/settings/payment"],
      ["admin-settings-branding", "/admin/settings/branding"],
      ["admin-settings-promote-link", "/admin/settings/promote-link"],
      ["admin-settings-marketplace", "/admin/settings/marketplace"],
      ["admin-settings-marketings", "/admin/settings/marketings"],
      ["admin-settings-integrations", "/admin/settings/integrations"],
      ["admin-settings-integrations-endpoint", `/admin/settings/integrations/${endpoint.id}`],
      ["admin-settings-autotier", "/admin/settings/autotier"],
      ["admin-settings-networks", "/admin/settings/networks"],
      ["admin-plans", "/admin/plans"],
      ["admin-contact", "/admin/contact-us"],
      ["admin-paypal", "/admin/paypal/connect"],
      ["admin-not-found", "/admin/not-found"],
    ]));

  it("affiliate screens: the public portal and the account area", async () => {
    const { shop, order } = await seed();
    const handle = shop.domain.replace(".myshopify.com", "");
    const { page, errors } = await browser.newSession(server.url(""));
    const publicPages = await sweep(
      page,
      [
        ["portal-landing", `/portal/${handle}/`],
        ["portal-signup", `/portal/${handle}/signup`],
        ["portal-login", `/portal/${handle}/login`],
        ["portal-forgot", `/portal/${handle}/forgot`],
        ["portal-reset-invalid", `/portal/${handle}/reset?token=nope`],
        // No shop to take the language from: the visitor picks it.
        ["marketplace", "/marketplace?lang=pseudo"],
      ],
      false,
    );
    await page.goto(`/portal/${handle}/login`);
    await page.locator('[name="email"]').fill("lena@aff.example");
    await page.locator('[name="password"]').fill(AFFILIATE_PASSWORD);
    await page.locator('form[method="post"] button[type="submit"]').click();
    await page.waitForURL("**/account");
    const account = await sweep(
      page,
      [
        ["account-dashboard", "/account"],
        ["account-links", "/account/links"],
        ["account-products", "/account/products"],
        ["account-coupons", "/account/coupons"],
        ["account-creatives", "/account/creatives"],
        ["account-sales", "/account/sales"],
        ["account-sale", `/account/sales/${order.id}`],
        ["account-payouts", "/account/payouts"],
        ["account-recruits", "/account/recruits"],
        ["account-guide", "/account/guide"],
        ["account-settings", "/account/settings"],
        ["account-contact", "/account/contact-us"],
      ],
      false,
    );
    expect([...publicPages, ...account]).toEqual([]);
    expect(errors.unexpected(failedResource(400))).toEqual([]);
  });
});
