import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { getConfig } from "~/config.server";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { dispatchEvent } from "~/worker/dispatch-event.server";
import { drainJobs } from "~/worker/job-registry.server";
import { preferencesUrl } from "~/models/notifications/mail-preferences";
import { runDailyMail } from "~/models/notifications/scheduled-mail.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useSmtpSink } from "../support/smtp-sink";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// The notifications that are not a direct answer to one request: the daily
// job's payout-method reminder and merchant digest, the tier-change and
// coupon e-mails, the staff opt-in for merchant e-mails, the per-kind
// preference page and the shop's branding in the layout. Every e-mail is
// read back from a real SMTP server on loopback.
applyTestEnv({ MAIL_FROM: "Affiliates <affiliates@app.example>" });
const smtp = useSmtpSink();
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

const addressOf = (mail: ParsedMail) => (mail.to && "text" in mail.to ? mail.to.text : "");
const mailTo = (address: string) => smtp.received.filter((m) => addressOf(m) === address);

async function settle() {
  await drainJobs();
  await new Promise((r) => setTimeout(r, 50));
}

const DAY = 86_400_000;
const runDaily = (shopId: string, runAt: string, now = new Date()) => runDailyMail(getDb(), { shopId, runAt }, now);

async function approvedCommission(shopId: string, affiliateId: string, amount: number, at = new Date()) {
  const order = await getDb().order.create({
    data: {
      shopId,
      shopifyGid: `gid://shopify/Order/${randomUUID()}`,
      name: `#${Math.floor(Math.random() * 9000) + 1000}`,
      currency: "USD",
      subtotal: amount * 10,
      total: amount * 10,
      status: "approved",
      affiliateId,
      placedAt: at,
    },
  });
  await getDb().commission.create({
    data: { shopId, orderId: order.id, affiliateId, amount, currency: "USD", status: "approved", createdAt: at },
  });
  return order;
}

beforeEach(() => {
  smtp.received.length = 0;
});

describe("payout method missing (daily job)", () => {
  it("reminds an affiliate owed commission without a PayPal address, at most once in 7 days", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const missing = await buildAffiliate(shop.id, campaign.id, { email: "nopay@aff.example", firstName: "Nia" });
    const hasPaypal = await buildAffiliate(shop.id, campaign.id, {
      email: "paid@aff.example",
      paypalEmail: "paid@paypal.example",
    });
    const owedNothing = await buildAffiliate(shop.id, campaign.id, { email: "zero@aff.example" });
    await approvedCommission(shop.id, missing.id, 4200);
    await approvedCommission(shop.id, hasPaypal.id, 1000);
    void owedNothing;

    const now = new Date();
    await runDaily(shop.id, now.toISOString(), now);
    await settle();
    const [reminder] = mailTo("nopay@aff.example");
    expect(reminder?.subject).toBe("Add a payout method to receive $42.00");
    expect(reminder?.text).toContain("Hi Nia,");
    expect(reminder?.text).toMatch(/https?:\/\/\S+\/account\/payouts/);
    expect(mailTo("paid@aff.example")).toHaveLength(0);
    expect(mailTo("zero@aff.example")).toHaveLength(0);

    // The same run again, the next day, and six days later: nothing new.
    await runDaily(shop.id, now.toISOString(), now);
    await runDaily(shop.id, new Date(now.getTime() + DAY).toISOString(), new Date(now.getTime() + DAY));
    await runDaily(shop.id, new Date(now.getTime() + 6 * DAY).toISOString(), new Date(now.getTime() + 6 * DAY));
    await settle();
    expect(mailTo("nopay@aff.example")).toHaveLength(1);
    // A week later, still owed and still no address: reminded again.
    await runDaily(shop.id, new Date(now.getTime() + 7 * DAY).toISOString(), new Date(now.getTime() + 7 * DAY));
    await settle();
    expect(mailTo("nopay@aff.example")).toHaveLength(2);
    // One chain of runs per shop, however many runs asked for the next one.
    expect(await getDb().job.count({ where: { type: "notifications.daily", status: "queued" } })).toBe(1);
  });
});

describe("merchant digest (daily job)", () => {
  it("sends yesterday's figures to the admin and the staff who opted in, once", async () => {
    const shop = await buildShop();
    await getDb().shop.update({ where: { id: shop.id }, data: { settings: JSON.stringify({ mailDigest: "daily" }) } });
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id, { paypalEmail: "p@paypal.example" });
    await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    const optedIn = await buildUser(shop.id, { role: "staff", email: "ops@staff.example" });
    await getDb().user.update({ where: { id: optedIn.id }, data: { mailKinds: '["merchant.digest"]' } });
    await buildUser(shop.id, { role: "staff", email: "quiet@staff.example" });
    const gone = await buildUser(shop.id, { role: "staff", email: "gone@staff.example", status: "disabled" });
    await getDb().user.update({ where: { id: gone.id }, data: { mailKinds: '["merchant.digest"]' } });
    const yesterday = new Date("2026-11-23T12:00:00Z");
    for (const at of [yesterday, yesterday, new Date("2026-11-24T01:00:00Z")]) {
      await getDb().click.create({
        data: { shopId: shop.id, affiliateId: affiliate.id, clickId: randomUUID(), landingUrl: "/", createdAt: at },
      });
    }
    await approvedCommission(shop.id, affiliate.id, 850, yesterday);

    const runAt = "2026-11-24T08:00:00.000Z";
    await runDaily(shop.id, runAt);
    await runDaily(shop.id, runAt);
    await settle();
    for (const address of [shop.adminEmail, "ops@staff.example"]) {
      const mails = mailTo(address);
      expect(mails, address).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`${shop.name} affiliate summary: Nov 23, 2026`);
      expect(mails[0]!.text).toContain("Clicks: 2");
      expect(mails[0]!.text).toContain("Sales: 1 ($85.00)");
      expect(mails[0]!.text).toContain("Commission: $8.50");
      expect(mails[0]!.text).toContain("Affiliates waiting for approval: 1");
    }
    expect(mailTo("quiet@staff.example")).toHaveLength(0);
    expect(mailTo("gone@staff.example")).toHaveLength(0);
  });

  it("is sent weekly on Mondays only, and never when off; the choice is saved on the Notifications screen", async () => {
    const shop = await buildShop();
    const email = "boss@shop.example";
    await buildUser(shop.id, { role: "admin", email });
    const admin = new HttpClient(server.url);
    expect((await admin.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
    const route = `/admin/mails?index&_data=${encodeURIComponent("routes/$role.mails._index")}`;
    const bad = await admin.postForm(route, { intent: "digest", digest: "hourly" });
    expect(bad.status).toBe(422);
    expect((await admin.postForm(route, { intent: "digest", digest: "weekly" })).status).toBe(200);
    // Sunday's run: nothing; Monday's: the week before.
    await runDaily(shop.id, "2026-11-22T08:00:00.000Z");
    await runDaily(shop.id, "2026-11-23T08:00:00.000Z");
    await settle();
    expect(mailTo(shop.adminEmail).map((m) => m.subject)).toEqual([
      `${shop.name} affiliate summary: Nov 16 – 22, 2026`,
    ]);
    expect((await admin.postForm(route, { intent: "digest", digest: "off" })).status).toBe(200);
    await runDaily(shop.id, "2026-11-30T08:00:00.000Z");
    await settle();
    expect(mailTo(shop.adminEmail)).toHaveLength(1);
  });
});

describe("staff opt-in for merchant e-mails", () => {
  it("lets the signed-in user choose merchant e-mails, which then reach them too", async () => {
    const shop = await buildShop();
    const email = "lee@staff.example";
    const user = await buildUser(shop.id, { role: "admin", email });
    const client = new HttpClient(server.url);
    expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
    const route = `/admin/mails?index&tab=mine&_data=${encodeURIComponent("routes/$role.mails._index")}`;
    const saved = await client.postForm(route, { intent: "mine", kinds: "merchant.signup,affiliate.approved,nope" });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { mailKinds: string[] }).mailKinds).toEqual(["merchant.signup"]);
    const page = (await (await client.get(route)).json()) as { me: { kinds: string[] }; merchantKinds: string[] };
    expect(page.me.kinds).toEqual(["merchant.signup"]);
    expect(page.merchantKinds).toContain("merchant.digest");
    expect((await getDb().user.findUniqueOrThrow({ where: { id: user.id } })).mailKinds).toBe('["merchant.signup"]');

    const campaign = await buildCampaign(shop.id);
    const ada = await buildAffiliate(shop.id, campaign.id, {
      status: "pending",
      email: "ada@aff.example",
      firstName: "Ada",
      lastName: "Lind",
    });
    const event = await getDb().domainEvent.create({
      data: {
        shopId: shop.id,
        type: "affiliate.created",
        data: JSON.stringify({ affiliateId: ada.id, status: "pending", source: "signup" }),
      },
    });
    await dispatchEvent(event.id);
    await settle();
    expect(mailTo(email).map((m) => m.subject)).toEqual(["New affiliate waiting for approval: Ada Lind"]);
    expect(mailTo(shop.adminEmail)).toHaveLength(1);
  });
});

describe("tier change and branding", () => {
  it("tells the affiliate their new tier, in a layout with the shop's logo and colour", async () => {
    const shop = await buildShop();
    const logo = `/portal-assets/${shop.id}/logo-1.png`;
    await getDb().shop.update({
      where: { id: shop.id },
      data: { settings: JSON.stringify({ branding: { primary_color: "#AA3300", logo } }) },
    });
    const silver = await buildCampaign(shop.id, { name: "Silver partners" });
    const gold = await buildCampaign(shop.id, { name: "Gold partners" });
    const affiliate = await buildAffiliate(shop.id, gold.id, { email: "tia@aff.example", firstName: "Tia" });
    const event = await getDb().domainEvent.create({
      data: {
        shopId: shop.id,
        type: "affiliate.tier_changed",
        data: JSON.stringify({
          affiliateId: affiliate.id,
          fromCampaignId: silver.id,
          toCampaignId: gold.id,
          direction: "up",
          reason: "sales >= 10",
        }),
      },
    });
    await dispatchEvent(event.id);
    await dispatchEvent(event.id);
    await settle();
    const mails = mailTo("tia@aff.example");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("You are now in Gold partners");
    expect(mails[0]!.text).toContain("from Silver partners to Gold partners");
    const html = String(mails[0]!.html);
    expect(html).toContain(`<img src="${getConfig().appUrl}${logo}"`);
    expect(html).toContain("border-top:4px solid #AA3300");
  });
});

describe("coupon code assigned", () => {
  const SHOP = "coupon-mail.myshopify.com";

  it("is sent once the code exists in Shopify, and only once", async () => {
    sim.reset();
    sim.setAppUrl(server.url(""));
    const shop = await buildShop({ domain: SHOP });
    await getDb().session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        accessToken: sim.accessToken(SHOP),
        scope: "write_discounts",
      },
    });
    const campaign = await buildCampaign(shop.id);
    await getDb().campaign.update({
      where: { id: campaign.id },
      data: { couponEnabled: true, couponPrefix: "vip-", couponDiscountType: "percentage", couponDiscountValue: 1000 },
    });
    const affiliate = await buildAffiliate(shop.id, campaign.id, {
      status: "pending",
      referralCode: "CORA1",
      email: "cora@aff.example",
      firstName: "Cora",
    });
    await setAffiliatesStatus(shopDb(getDb(), shop.id), [affiliate.id], "approve");
    await settle();
    const coupons = mailTo("cora@aff.example").filter((m) => m.subject?.startsWith("Your coupon code"));
    expect(coupons.map((m) => m.subject)).toEqual(["Your coupon code: VIP-CORA1"]);
    expect(coupons[0]!.text).toContain("coupon code is VIP-CORA1");
    expect(sim.store.shop(SHOP).discounts.flatMap((d) => d.codes.map((c) => c.code))).toContain("VIP-CORA1");
    // Approved again later: the code exists, no second e-mail.
    await getDb().affiliate.update({ where: { id: affiliate.id }, data: { status: "pending" } });
    await setAffiliatesStatus(shopDb(getDb(), shop.id), [affiliate.id], "approve");
    await settle();
    expect(mailTo("cora@aff.example").filter((m) => m.subject?.startsWith("Your coupon code"))).toHaveLength(1);
  });
});

describe("preference page", () => {
  it("lists every kind with a checkbox (transactional ones always sent) and saves the choice", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "pia@aff.example" });
    const { appUrl, SESSION_SECRET } = getConfig();
    const url = new URL(preferencesUrl(appUrl, SESSION_SECRET, shop.id, affiliate.email, "affiliate.commission"));
    const path = `${url.pathname}${url.search}`;
    const client = new HttpClient(server.url);
    const page = await client.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("E-mail preferences");
    expect(html).toMatch(/<input[^>]*name="receive"[^>]*value="affiliate.tier_changed"/);
    expect(html).toContain("Password reset");
    expect(html).not.toContain('value="merchant.digest"');
    const data = `${path}&_data=${encodeURIComponent("routes/mail.preferences")}`;
    const state = (await (await client.get(data)).json()) as {
      kinds: { key: string; transactional: boolean; receive: boolean }[];
    };
    expect(state.kinds.find((k) => k.key === "affiliate.reset")).toMatchObject({ transactional: true, receive: true });

    const save = (receive: string[]) =>
      client.request(data, {
        method: "POST",
        body: new URLSearchParams([["intent", "save"], ...receive.map((k) => ["receive", k])]),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    const saved = await save(["affiliate.approved", "affiliate.reset"]);
    expect(saved.status).toBe(200);
    const out = await getDb().mailOptOut.findMany({ where: { shopId: shop.id }, select: { kind: true } });
    expect(out.map((o) => o.kind)).toContain("affiliate.tier_changed");
    expect(out.map((o) => o.kind)).not.toContain("affiliate.approved");
    expect(out.map((o) => o.kind)).not.toContain("affiliate.reset");
    // Ticking a kind again opts back in.
    await save(["affiliate.approved", "affiliate.tier_changed"]);
    const after = await getDb().mailOptOut.findMany({ where: { shopId: shop.id }, select: { kind: true } });
    expect(after.map((o) => o.kind)).not.toContain("affiliate.tier_changed");
    // A forged address is refused.
    const forged = new URL(url);
    forged.searchParams.set("a", "someone@else.example");
    expect((await client.get(`${forged.pathname}${forged.search}`)).status).toBe(404);
  });
});
