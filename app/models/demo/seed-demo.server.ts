import { randomUUID } from "node:crypto";
import { getDb } from "../../db.server";
import { hashApiKey } from "../api-keys/api-key.server";
import { hashPassword, verifyPassword } from "../auth/password.server";
import { upsertProducts } from "../portal/product-catalogue.server";
import { DEMO_PRODUCTS } from "./demo-catalogue";
import { seededRandom } from "../../lib/prng";
import { percentOf } from "../commissions/calculate-commission";
import { demoAffiliates } from "./demo-people";
import { connectShopToSimulator, demoStoreRunning } from "../shop/store-simulator-connection.server";

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
      pricingPlan: "growth",
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
  const affiliates: { id: string; campaign: typeof standard; parentId: string | null; status: string }[] = [];
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
    affiliates.push({ id: created.id, campaign, parentId: created.parentId, status });
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
  const byId = new Map(affiliates.map((a) => [a.id, a]));
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
    const source = !aff ? "none" : rand() < 0.3 ? "coupon" : "link";
    const order = await db.order.create({
      data: {
        shopId: shop.id,
        shopifyGid: `gid://shopify/Order/${5_100_000_000_000 + i}`,
        name: `#${1001 + i}`,
        customerEmail: `customer${i}@example.net`,
        currency: "USD",
        subtotal,
        total: subtotal + Math.floor(subtotal * 0.08) + 599,
        status: aff ? status : "pending",
        fulfillment: rand() < 0.8 ? "fulfilled" : "partial",
        affiliateId: aff?.id ?? null,
        attributionSource: source,
        attributionReason: !aff
          ? "No affiliate coupon, referral link or lifetime customer link on this order."
          : source === "coupon"
            ? "Affiliate coupon used at checkout."
            : "Referral link click within the cookie window.",
        placedAt,
        createdAt: placedAt,
      },
    });
    if (!aff) continue;
    // Level 1 earns the campaign rate; uplines earn the level rates.
    const lines: { affiliateId: string; level: number; amount: number }[] = [
      { affiliateId: aff.id, level: 1, amount: percentOf(subtotal, aff.campaign.commissionValue) },
    ];
    let upline = aff.parentId ? byId.get(aff.parentId) : undefined;
    for (const level of aff.campaign.levels.sort((a, b) => a.level - b.level)) {
      if (!upline) break;
      lines.push({ affiliateId: upline.id, level: level.level, amount: percentOf(subtotal, level.rate) });
      upline = upline.parentId ? byId.get(upline.parentId) : undefined;
    }
    await db.commission.createMany({
      data: lines.map((l) => ({
        ...l,
        shopId: shop.id,
        orderId: order.id,
        currency: "USD",
        status,
        createdAt: placedAt,
      })),
    });
  }

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
  // The catalogue the affiliate portal's link builder and products page show.
  await upsertProducts(shop.id, DEMO_PRODUCTS);
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
