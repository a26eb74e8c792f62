import { orderReason } from "../support/attribution-reasons";
import { linesOfPayout } from "~/models/payouts/payout-line-counts.server";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { percentOf } from "~/models/commissions/calculate-commission";
import { seedDemoShop } from "~/models/demo/seed-demo.server";
import { readReferralProgram } from "~/models/referrals/program-settings";
import { paymentSettingsOf } from "~/models/payouts/payment-settings";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";
import { english } from "../support/explanations";
import referralTexts from "../../public/locales/en/Referrals.json";

// The demo shop a new merchant meets on `npm start`: its sales must read like
// live ones, with the reason each was (not) credited and how every
// commission line was computed, written the way the webhook flow writes them.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "demo-seed-"));
applyTestEnv({ DATA_DIR: dataDir });
useTestDatabase();
useMoneyCheck();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const demo = {
  shopDomain: "demo-seed.myshopify.com",
  adminEmail: "admin@demo-seed.example",
  adminPassword: "demo admin password",
  staffEmail: "staff@demo-seed.example",
  staffPassword: "demo staff password",
  apiKey: "sk_demo_0123456789abcdefghijklmn",
  now: new Date("2026-11-20T12:00:00Z"),
};

describe("demo seed", () => {
  it("stores each sale's reason and each commission line's explanation as the live flow does", async () => {
    expect(await seedDemoShop(demo)).toBe(true);
    const db = getDb();
    const shop = await db.shop.findUniqueOrThrow({ where: { domain: demo.shopDomain } });
    const orders = await db.order.findMany({
      where: { shopId: shop.id },
      include: {
        commissions: { orderBy: { level: "asc" } },
        affiliate: { include: { coupons: true, campaign: true } },
      },
    });
    expect(orders).toHaveLength(140);
    const credited = orders.filter((o) => o.affiliate);
    expect(credited.length).toBeGreaterThan(100);

    for (const order of orders) {
      const a = order.affiliate;
      if (!a) {
        expect(order.attributionSource).toBe("none");
        expect(orderReason(order)).toMatch(/^Not credited: /);
        expect(order.commissions).toEqual([]);
        continue;
      }
      const who = `${a.firstName} ${a.lastName} (${a.referralCode})`;
      if (order.attributionSource === "coupon") {
        // The coupon is the affiliate's own, and the order carries it.
        const code = a.coupons[0]!.code;
        expect(JSON.parse(order.discountCodes)).toEqual([code]);
        expect(orderReason(order)).toBe(`Credited to ${who}: their coupon ${code} was used at checkout.`);
      } else {
        expect(order.attributionSource).toBe("link");
        // The click that led to the order is recorded, before it, within the cookie window.
        const click = await db.click.findUniqueOrThrow({ where: { clickId: order.clickId! } });
        expect(click.affiliateId).toBe(a.id);
        expect(click.createdAt.getTime()).toBeLessThanOrEqual(order.placedAt.getTime());
        expect(orderReason(order)).toMatch(
          new RegExp(
            `^Credited to ${who.replace(/[()]/g, "\\$&")}: referral link click (the same day|\\d+ days? before the order), within the ${a.campaign.cookieDays}-day cookie window\\.$`,
          ),
        );
      }
      // Every demo customer is new: level 1 earns the new-customer rate where the campaign has one.
      expect(order.isNewCustomer).toBe(true);
      const rate = a.campaign.newCustomerValue ?? a.campaign.commissionValue;
      const [direct, ...uplines] = order.commissions;
      expect(direct).toMatchObject({ level: 1, affiliateId: a.id, amount: percentOf(order.subtotal, rate) });
      expect(english(direct!.explanation)).toBe(
        `${rate / 100}% (${a.campaign.newCustomerValue === null ? "campaign" : "new-customer"} rate) on $${(order.subtotal / 100).toFixed(2)}`,
      );
      for (const line of uplines) expect(english(line.explanation)).toMatch(/^Level [23]: \d+% of \$[\d,.]+ sale$/);
    }
    // The MLM tree earns upline lines on some demo sales.
    expect(credited.some((o) => o.commissions.length === 3)).toBe(true);
  });

  it("gives affiliates creatives: banners drawn on the spot with thumbnails, texts and a video link", async () => {
    expect(await seedDemoShop(demo)).toBe(true);
    const db = getDb();
    const creatives = await db.creative.findMany({ orderBy: { title: "asc" }, include: { campaigns: true } });
    expect(creatives.map((c) => [c.kind, c.title])).toEqual([
      ["image", "Autumn trails banner"],
      ["text", "Instagram caption"],
      ["text", "Newsletter swipe"],
      ["image", "Summit sidebar ad"],
      ["video", "Trail test video"],
    ]);
    for (const image of creatives.filter((c) => c.kind === "image")) {
      expect(Object.keys(JSON.parse(image.thumbnails)).length).toBe(3);
      expect(image.width).toBeGreaterThan(0);
    }
    // The e-mail swipe is for one campaign only.
    expect(creatives.find((c) => c.title === "Newsletter swipe")?.campaigns).toHaveLength(1);
  });

  it("shows pending payouts that can be paid by hand: each shows exactly its balance, all at the minimum", async () => {
    expect(await seedDemoShop(demo)).toBe(true);
    const shop = await getDb().shop.findUniqueOrThrow({ where: { domain: demo.shopDomain } });
    const pending = await getDb().payout.findMany({ where: { shopId: shop.id, status: "pending" } });
    expect(pending.length).toBeGreaterThan(0);
    for (const payout of pending) {
      // A pending payout holds no lines (ADR 058): it shows its affiliate's loose balance.
      const lines = await getDb().commission.aggregate({
        where: linesOfPayout(shop.id, payout),
        _sum: { amount: true },
      });
      expect(lines._sum.amount).toBe(payout.amount);
      expect(payout.amount).toBeGreaterThanOrEqual(2500);
    }
  });

  it("switches refer-a-friend on with advocates and referrals in every status, each with its reason and checks", async () => {
    expect(await seedDemoShop(demo)).toBe(true);
    const db = getDb();
    const shop = await db.shop.findUniqueOrThrow({ where: { domain: demo.shopDomain } });
    expect(readReferralProgram(shop.settings)).toMatchObject({ enabled: true, holdDays: 14 });
    // The payment settings seeded before are kept next to it.
    expect(paymentSettingsOf(shop.settings).minimumAmount).toBe(2500);
    const referrals = await db.referral.findMany({ where: { shopId: shop.id }, include: { advocate: true } });
    expect(new Set(referrals.map((r) => r.status))).toEqual(new Set(["pending", "rewarded", "blocked", "cancelled"]));
    expect(await db.referralAdvocate.count({ where: { shopId: shop.id } })).toBe(3);
    for (const r of referrals) {
      expect(r.reason).toMatch(/^Referrals:reason\.(shared_code|link)\{/);
      const checks = JSON.parse(r.checks) as {
        rule: string;
        outcome: string;
        detail: string;
        values?: Record<string, unknown>;
      }[];
      expect(checks).toHaveLength(6);
      for (const c of checks) {
        expect(c.detail).toMatch(new RegExp(`^checks\\.${c.rule}\\.`));
        // Every placeholder of the text has its value (the page showed "limit {{threshold}}").
        const text = c.detail
          .split(".")
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], referralTexts);
        const wanted = [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
        expect(Object.keys(c.values ?? {}).sort(), c.detail).toEqual(expect.arrayContaining(wanted));
      }
      expect(r.blockedRule).toBe(r.status === "blocked" ? checks.find((c) => c.outcome === "block")!.rule : null);
      expect(r.holdUntil.getTime() - r.placedAt.getTime()).toBe(14 * 86_400_000);
      if (r.status === "rewarded") expect(r.rewardCode).toBeTruthy();
    }
  });
});
