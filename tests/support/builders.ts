import { randomBytes } from "node:crypto";
import { getDb } from "~/db.server";
import { hashPassword } from "~/models/auth/password.server";
import { emailKey } from "~/models/referrals/email-key";

// Builders for test data: each takes only what a test cares about.
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;

export async function buildShop(
  overrides: Partial<{
    domain: string;
    pricingPlan: string | null;
    needSelectPlan: boolean | null;
    language: string;
  }> = {},
) {
  const domain = overrides.domain ?? `shop-${unique()}.myshopify.com`;
  return getDb().shop.create({
    data: {
      domain,
      name: domain.split(".")[0]!,
      url: `https://${domain}`,
      adminEmail: `owner@${domain}`,
      pricingPlan: overrides.pricingPlan === undefined ? "growth" : overrides.pricingPlan,
      needSelectPlan: overrides.needSelectPlan ?? null,
      language: overrides.language ?? "en",
    },
  });
}

export const TEST_PASSWORD = "correct horse battery";

export async function buildUser(
  shopId: string,
  overrides: Partial<{
    role: "admin" | "staff";
    email: string;
    password: string | null;
    permissions: string[];
    status: string;
  }> = {},
) {
  const password = overrides.password === undefined ? TEST_PASSWORD : overrides.password;
  return getDb().user.create({
    data: {
      shopId,
      role: overrides.role ?? "admin",
      email: overrides.email ?? `user-${unique()}@example.com`,
      name: overrides.role === "staff" ? "Test Staff" : "Test Admin",
      passwordHash: password ? await hashPassword(password) : null,
      permissions: JSON.stringify(overrides.permissions ?? []),
      status: overrides.status ?? "active",
    },
  });
}

export async function buildCampaign(shopId: string, overrides: Partial<{ name: string; status: string }> = {}) {
  return getDb().campaign.create({
    data: { shopId, name: overrides.name ?? `Campaign ${unique()}`, status: overrides.status ?? "active" },
  });
}

export async function buildAffiliate(
  shopId: string,
  campaignId: string,
  overrides: Partial<{
    email: string;
    status: string;
    referralCode: string;
    firstName: string;
    lastName: string;
    paypalEmail: string | null;
    customerGid: string | null;
    /** Stored as an Argon2id hash, so the affiliate can log in with it. */
    password: string;
  }> = {},
) {
  const id = unique();
  const { password, ...fields } = overrides;
  return getDb().affiliate.create({
    data: {
      shopId,
      campaignId,
      email: `aff-${id}@example.com`,
      firstName: "Test",
      lastName: "Affiliate",
      status: "approved",
      referralCode: `CODE${id}`.toUpperCase(),
      ...fields,
      ...(password ? { passwordHash: await hashPassword(password) } : {}),
    },
  });
}

/** A refer-a-friend advocate of the shop (written directly; no Shopify code is made). */
export async function buildAdvocate(
  shopId: string,
  overrides: Partial<{ email: string; firstName: string; friendCode: string | null; createdAt: Date }> = {},
) {
  const id = unique();
  const email = overrides.email ?? `advocate-${id}@example.com`;
  return getDb().referralAdvocate.create({
    data: {
      shopId,
      email,
      emailKey: emailKey(email),
      token: `t${id}`,
      firstName: overrides.firstName ?? "",
      friendCode: overrides.friendCode === undefined ? null : overrides.friendCode,
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    },
  });
}

/** A referral of `advocateId`'s, as the order job would store it; a pending $10 discount-code reward by default. */
export async function buildReferral(
  shopId: string,
  advocateId: string,
  overrides: Partial<{
    orderGid: string;
    orderName: string;
    friendEmail: string | null;
    source: "code" | "link";
    reason: string;
    friendCode: string | null;
    currency: string;
    orderTotal: number;
    status: "pending" | "rewarded" | "blocked" | "cancelled";
    checks: {
      rule: string;
      outcome: "pass" | "flag" | "block";
      detail: string;
      values?: Record<string, string | number>;
    }[];
    blockedRule: string | null;
    holdUntil: Date;
    rewardKind: "discount_code" | "store_credit" | "cash";
    rewardValue: number;
    rewardCurrency: string;
    rewardCode: string | null;
    payoutId: string | null;
    rewardedAt: Date | null;
    cancelledAt: Date | null;
    placedAt: Date;
    createdAt: Date;
  }> = {},
) {
  const id = unique();
  const { checks, createdAt, ...fields } = overrides;
  const placedAt = overrides.placedAt ?? createdAt ?? new Date();
  return getDb().referral.create({
    data: {
      shopId,
      advocateId,
      orderGid: `gid://shopify/Order/${Date.now()}${counter++}`,
      orderName: `#R${id.slice(-5)}`,
      friendEmail: `friend-${id}@example.com`,
      source: "code",
      reason: "The friend used the advocate's code at checkout.",
      currency: "USD",
      orderTotal: 5_000,
      holdUntil: new Date(placedAt.getTime() + 14 * 86_400_000),
      rewardKind: "discount_code",
      rewardValue: 1_000,
      rewardCurrency: "USD",
      ...fields,
      placedAt,
      checks: JSON.stringify(checks ?? []),
      ...(createdAt ? { createdAt } : {}),
    },
  });
}

/**
 * A shop that hears its events: an offline session (Flow triggers, Shopify
 * writes) and a webhook endpoint for `eventTypes` at `url`.
 */
export async function buildListeningShop(
  domain: string,
  hear: { accessToken: string; url: string; eventTypes: string[] },
) {
  const db = getDb();
  const shop = await buildShop({ domain });
  await db.session.create({
    data: { id: `offline_${domain}`, shop: domain, state: "", accessToken: hear.accessToken, scope: "read_orders" },
  });
  await db.webhookEndpoint.create({
    data: {
      shopId: shop.id,
      url: hear.url,
      secret: "whsec_dGVzdHNlY3JldA==",
      eventTypes: JSON.stringify(hear.eventTypes),
    },
  });
  return shop;
}
