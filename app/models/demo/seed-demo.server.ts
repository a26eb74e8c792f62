import { randomUUID } from "node:crypto";
import { getDb } from "../../db.server";
import { hashApiKey } from "../api-keys/api-key.server";
import { hashPassword, verifyPassword } from "../auth/password.server";
import { upsertCollections, upsertProducts } from "../portal/product-catalogue.server";
import { seedDemoCreatives } from "../creatives/demo-creatives.server";
import { shopDb } from "../../db/shop-db.server";
import { DEMO_COLLECTIONS, DEMO_PRODUCTS } from "./demo-catalogue";
import { seededRandom } from "../../lib/prng";
import { attributeOrder, type AffiliateFacts } from "../attribution/attribute-order";
import { paymentSettingsSchema, withPaymentSettings } from "../payouts/payment-settings";
import { refreshPendingPayouts } from "../payouts/refresh-pending-payouts.server";
import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";
import { uplineChain } from "../orders/record-order.server";
import { demoAffiliates } from "./demo-people";
import { connectShopToSimulator, demoStoreRunning } from "../shop/store-simulator-connection.server";
import { seedDemoReferrals } from "../referrals/demo-referrals.server";
import { storedAttributionReason } from "../attribution/attribution-reason";

export interface DemoOptions {
  shopDomain: string;
  adminEmail: string;
  adminPassword: string;
  staffEmail: string;
  staffPassword: string;
  apiKey: string;
  now?: Date;
}

const PRODUCTS = [
  "/products/merino-beanie",
  "/products/trail-runner-shoes",
  "/products/canvas-tote",
  "/collections/summer",
  "/products/insulated-bottle",
  "/",
];
const REFERRERS = [
  "https://www.instagram.com/",
  "https://www.youtube.com/",
  "https://www.tiktok.com/",
  "https://blog.example.org/gear-review",
  null,
];

type DemoCampaign = {
  commissionType: string;
  commissionValue: number;
  newCustomerValue: number | null;
  cookieDays: number;
  levels: { level: number; basis: string; rate: number }[];
};

interface DemoAffiliate {
  id: string;
  campaign: DemoCampaign;
  parentId: string | null;
  status: string;
  coupon: string | null;
  facts: AffiliateFacts;
}

function campaignTerms(c: DemoCampaign): CampaignTerms {
  return {
    commissionType: c.commissionType as CampaignTerms["commissionType"],
    commissionValue: c.commissionValue,
    newCustomerValue: c.newCustomerValue,
    rules: [],
    levels: c.levels.map((l) => ({
      level: l.level,
      basis: l.basis as CampaignTerms["levels"][number]["basis"],
      rate: l.rate,
    })),
  };
}

/** Seeds the demo shop once; returns false when it already exists. */
export async function seedDemoShop(opts: DemoOptions): Promise<boolean> {
  const db = getDb();
  if (await db.shop.findUnique({ where: { domain: opts.shopDomain } })) return false;
  // Deterministic, so every fresh demo looks the same.
  const rand = seededRandom(20261121);
  const now = opts.now ?? new Date();
  const DAY = 86_400_000;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;

  const [adminHash, staffHash] = await Promise.all([
    hashPassword(opts.adminPassword),
    hashPassword(opts.staffPassword),
  ]);

  const shop = await db.shop.create({
    data: {
      domain: opts.shopDomain,
      name: "Demo Outdoor Store",
      url: `https://${opts.shopDomain}`,
      adminEmail: opts.adminEmail,
      shopifyPlan: "Basic",
      pricingPlan: "pro",
      currency: "USD",
      moneyFormat: "${{amount}}",
      timezone: "America/New_York",
      createdAt: new Date(now.getTime() - 120 * DAY),
      users: {
        create: [
          { role: "admin", email: opts.adminEmail, name: "Demo Admin", passwordHash: adminHash },
          {
            role: "staff",
            email: opts.staffEmail,
            name: "Demo Staff",
            passwordHash: staffHash,
            permissions: JSON.stringify(["campaigns", "affiliates", "sales"]),
          },
        ],
      },
      apiKeys: { create: { name: "Demo key", prefix: opts.apiKey.slice(0, 10), keyHash: hashApiKey(opts.apiKey) } },
    },
  });

  const standard = await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Standard affiliates",
      status: "active",
      isDefault: true,
      commissionType: "percent",
      commissionValue: 1000,
      newCustomerValue: 1500,
      cookieDays: 30,
      autoApproveAffiliates: false,
      autoApproveOrders: true,
      approvalHoldDays: 14,
      levels: {
        create: [
          { level: 2, basis: "percent_of_sale", rate: 300 },
          { level: 3, basis: "percent_of_sale", rate: 100 },
        ],
      },
    },
    include: { levels: true },
  });
  const influencers = await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Influencers (invite only)",
      status: "private",
      commissionType: "percent",
      commissionValue: 1500,
      cookieDays: 60,
      autoApproveAffiliates: true,
    },
    include: { levels: true },
  });
  await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Holiday flat bonus",
      status: "draft",
      commissionType: "flat_order",
      commissionValue: 500,
      cookieDays: 14,
    },
  });

  // 24 affiliates: most approved, some pending, one denied, one inactive;
  // the first three recruit others (an MLM tree three levels deep).
  const affiliates: DemoAffiliate[] = [];
  for (const person of demoAffiliates()) {
    const i = person.index;
    const status = person.status;
    const campaign = i % 6 === 5 ? influencers : standard;
    const parent = i >= 3 && i < 12 ? affiliates[i % 3]! : i >= 12 && i < 16 ? affiliates[3 + (i % 4)]! : null;
    const code = person.referralCode;
    const created = await db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        parentId: parent && campaign.id === standard.id ? parent.id : null,
        email: person.email,
        firstName: person.firstName,
        lastName: person.lastName,
        status,
        referralCode: code,
        paypalEmail: status === "approved" ? `pay-${code.toLowerCase()}@example.com` : null,
        createdAt: new Date(now.getTime() - (100 - i * 3) * DAY),
        coupons: person.couponCode ? { create: { shopId: shop.id, code: person.couponCode } } : undefined,
      },
    });
    affiliates.push({
      id: created.id,
      campaign,
      parentId: created.parentId,
      status,
      coupon: person.couponCode,
      facts: {
        id: created.id,
        name: `${person.firstName} ${person.lastName}`,
        code,
        email: created.email,
        customerGid: null,
        status,
        cookieDays: campaign.cookieDays,
      },
    });
  }
  const approved = affiliates.filter((a) => a.status === "approved");

  // Clicks over the last 90 days.
  const clicks = [];
  for (let i = 0; i < 1800; i++) {
    const aff = pick(approved);
    clicks.push({
      id: randomUUID(),
      shopId: shop.id,
      affiliateId: aff.id,
      clickId: randomUUID(),
      source: rand() < 0.8 ? "link" : "proxy",
      landingUrl: `https://${opts.shopDomain}${pick(PRODUCTS)}`,
      referrer: pick(REFERRERS),
      ipHash: randomUUID().replace(/-/g, ""),
      userAgent: "Mozilla/5.0 (demo)",
      createdAt: new Date(now.getTime() - Math.floor(rand() * 90 * DAY)),
    });
  }
  await db.click.createMany({ data: clicks });

  // Orders: most credited to an affiliate (link or coupon), some to nobody.
  // Attribution and commissions come from the same functions the webhook
  // flow uses (models/attribution, models/commissions), so a demo sale says
  // why it was credited and how each line was computed, exactly as a live one.
  const byId = new Map(affiliates.map((a) => [a.id, a]));
  const orderClicks: typeof clicks = [];
  for (let i = 0; i < 140; i++) {
    const placedAt = new Date(now.getTime() - Math.floor(rand() * 90 * DAY));
    const subtotal = 1500 + Math.floor(rand() * 24000);
    const credited = rand() < 0.85;
    const aff = credited ? pick(approved) : null;
    const ageDays = (now.getTime() - placedAt.getTime()) / DAY;
    const status = !aff
      ? "pending"
      : ageDays > 45
        ? "paid"
        : ageDays > 14
          ? rand() < 0.9
            ? "approved"
            : "denied"
          : "pending";
    const byCoupon = aff !== null && rand() < 0.3 && aff.coupon !== null;
    let click: (typeof clicks)[number] | null = null;
    if (aff && !byCoupon) {
      // The visit that led to the order, a few hours to days before it.
      click = {
        id: randomUUID(),
        shopId: shop.id,
        affiliateId: aff.id,
        clickId: randomUUID(),
        source: "link",
        landingUrl: `https://${opts.shopDomain}${pick(PRODUCTS)}`,
        referrer: pick(REFERRERS),
        ipHash: randomUUID().replace(/-/g, ""),
        userAgent: "Mozilla/5.0 (demo)",
        createdAt: new Date(placedAt.getTime() - Math.floor(rand() * 5 * DAY)),
      };
      orderClicks.push(click);
    }
    const customerEmail = `customer${i}@example.net`;
    const decision = attributeOrder({
      placedAt,
      buyerEmail: customerEmail,
      buyerCustomerGid: null,
      attributionModel: "last_click",
      coupon: aff && byCoupon ? { code: aff.coupon!, affiliate: aff.facts } : null,
      links: aff && click ? [{ affiliate: aff.facts, clickId: click.clickId, at: click.createdAt }] : [],
      pixel: null,
      lifetime: null,
    });
    // Every demo customer orders once: each order is a new customer's.
    const isNewCustomer = true;
    const outcome = aff
      ? calculateCommissions(campaignTerms(aff.campaign), {
          currency: "USD",
          lines: [{ id: `line-${i}`, productGid: null, quantity: 1, amount: subtotal }],
          isNewCustomer,
          chain: uplineChain(byId, aff.id, Math.max(1, ...aff.campaign.levels.map((l) => l.level))),
        })
      : null;
    const order = await db.order.create({
      data: {
        shopId: shop.id,
        shopifyGid: `gid://shopify/Order/${5_100_000_000_000 + i}`,
        name: `#${1001 + i}`,
        customerEmail,
        currency: "USD",
        subtotal,
        total: subtotal + Math.floor(subtotal * 0.08) + 599,
        status: aff ? status : "pending",
        fulfillment: rand() < 0.8 ? "fulfilled" : "partial",
        affiliateId: decision.affiliateId,
        attributionSource: decision.source,
        ...storedAttributionReason(decision.reason),
        clickId: decision.clickId,
        isNewCustomer,
        discountCodes: byCoupon && aff ? JSON.stringify([aff.coupon]) : undefined,
        placedAt,
        createdAt: placedAt,
      },
    });
    if (!outcome) continue;
    await db.commission.createMany({
      data: outcome.lines.map((l) => ({
        affiliateId: l.affiliateId,
        level: l.level,
        amount: l.amount,
        explanation: l.explanation,
        shopId: shop.id,
        orderId: order.id,
        currency: "USD",
        status,
        createdAt: placedAt,
      })),
    });
  }
  await db.click.createMany({ data: orderClicks });

  // Pay out the "paid" commissions, one payout per affiliate.
  const paid = await db.commission.groupBy({
    by: ["affiliateId"],
    where: { shopId: shop.id, status: "paid" },
    _sum: { amount: true },
  });
  for (const row of paid) {
    const payout = await db.payout.create({
      data: {
        shopId: shop.id,
        affiliateId: row.affiliateId,
        amount: row._sum.amount ?? 0,
        currency: "USD",
        status: "paid",
        method: "paypal",
        reference: `DEMO-${row.affiliateId.slice(-6).toUpperCase()}`,
        paidAt: new Date(now.getTime() - 40 * DAY),
      },
    });
    await db.commission.updateMany({
      where: { shopId: shop.id, affiliateId: row.affiliateId, status: "paid" },
      data: { payoutId: payout.id },
    });
  }
  // Approved commissions not paid yet wait as pending payouts (Payouts
  // list, Pending tab) at a $25 minimum, ready to be paid by hand.
  await db.shop.update({
    where: { id: shop.id },
    data: {
      settings: withPaymentSettings(
        shop.settings,
        paymentSettingsSchema.parse({ minimumAmount: 2500, affiliateMethods: ["paypal", "store_credit", "bank"] }),
      ),
    },
  });
  await db.$transaction((tx) => refreshPendingPayouts(tx, shop.id));
  // Refer-a-friend switched on, with advocates and referrals in every status.
  const { settings } = await db.shop.findUniqueOrThrow({ where: { id: shop.id }, select: { settings: true } });
  await seedDemoReferrals(db, { id: shop.id, settings }, now);
  // The catalogue the affiliate portal's link builder and products page show.
  await upsertProducts(shop.id, DEMO_PRODUCTS);
  await upsertCollections(shop.id, DEMO_COLLECTIONS);
  // Banners, texts and a video link for the affiliates' creatives page.
  await seedDemoCreatives(shopDb(db, shop.id), shop, standard.id);
  // The demo's store simulator is the demo shop's Shopify (Admin API, webhooks).
  if (demoStoreRunning()) await connectShopToSimulator(opts.shopDomain);
  return true;
}

/**
 * Keeps the printed demo logins true: when DEMO_ADMIN_PASSWORD (or the staff
 * one, or DEMO_API_KEY) changed since the seed, the demo shop follows it.
 */
export async function syncDemoCredentials(opts: DemoOptions) {
  const db = getDb();
  const shop = await db.shop.findUnique({ where: { domain: opts.shopDomain }, include: { users: true } });
  if (!shop) return;
  for (const [role, email, password] of [
    ["admin", opts.adminEmail, opts.adminPassword],
    ["staff", opts.staffEmail, opts.staffPassword],
  ] as const) {
    const user = shop.users.find((u) => u.role === role && u.email === email);
    if (user && !(await verifyPassword(user.passwordHash, password))) {
      await db.user.update({
        where: { id: user.id },
        data: { passwordHash: await hashPassword(password), status: "active" },
      });
    }
  }
  const keyHash = hashApiKey(opts.apiKey);
  const key = await db.apiKey.findUnique({ where: { keyHash } });
  if (!key)
    await db.apiKey.create({ data: { shopId: shop.id, name: "Demo key", prefix: opts.apiKey.slice(0, 10), keyHash } });
  // A demo seeded before the store simulator existed (or with another secret) is connected now.
  if (demoStoreRunning()) await connectShopToSimulator(opts.shopDomain);
}
