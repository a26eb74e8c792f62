import { storedAttributionReason, type AttributionReason } from "~/models/attribution/attribution-reason";
import { randomBytes, randomUUID } from "node:crypto";
import { getDb } from "~/db.server";
import { hashApiKey } from "~/models/api-keys/api-key.server";
import { runPayoutRefresh } from "~/models/payouts/payout-refresh-job.server";

// Builders and an HTTP client for the REST API /api/v1 tests.
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;

/**
 * A key of the shop (revoked when asked); returns the plain key and its row.
 * Keys are made in Settings › Integrations, a Pro feature, so a shop with a
 * key is on Pro (the REST API answers 403 on a plan without integrations).
 */
export async function buildApiKey(shopId: string, overrides: Partial<{ revokedAt: Date; lastUsedAt: Date }> = {}) {
  await getDb().shop.update({ where: { id: shopId }, data: { pricingPlan: "pro" } });
  const key = `sk_test_${unique()}${randomBytes(8).toString("hex")}`;
  const row = await getDb().apiKey.create({
    data: {
      shopId,
      name: "Test key",
      prefix: key.slice(0, 10),
      keyHash: hashApiKey(key),
      revokedAt: overrides.revokedAt ?? null,
      lastUsedAt: overrides.lastUsedAt ?? null,
    },
  });
  return { key, row };
}

export interface OrderOverrides {
  shopifyGid: string;
  name: string;
  currency: string;
  subtotal: number;
  total: number;
  refundedAmount: number;
  status: string;
  affiliateId: string | null;
  attributionSource: string;
  attributionReason: string;
  /** A decided reason (attribute-order.ts), stored as its key and values. */
  reason: AttributionReason;
  clickId: string | null;
  placedAt: Date;
  createdAt: Date;
}

export async function buildOrder(shopId: string, overrides: Partial<OrderOverrides> = {}) {
  const number = 1000 + counter++;
  return getDb().order.create({
    data: {
      shopId,
      shopifyGid: overrides.shopifyGid ?? `gid://shopify/Order/${Date.now()}${number}`,
      name: overrides.name ?? `#${number}`,
      currency: overrides.currency ?? "USD",
      subtotal: overrides.subtotal ?? 10_000,
      total: overrides.total ?? 11_000,
      refundedAmount: overrides.refundedAmount ?? 0,
      status: overrides.status ?? "pending",
      affiliateId: overrides.affiliateId ?? null,
      attributionSource: overrides.attributionSource ?? (overrides.affiliateId ? "link" : "none"),
      attributionReason: overrides.attributionReason ?? "",
      ...(overrides.reason ? storedAttributionReason(overrides.reason) : {}),
      clickId: overrides.clickId ?? null,
      placedAt: overrides.placedAt ?? new Date(),
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    },
  });
}

/**
 * What the payouts.refresh job does once a balance changed: the approved lines
 * gathered into pending payouts. Lines written by buildCommission come with no
 * event, so nothing queued that job for them.
 */
export function gatherPendingPayouts(shopId: string) {
  return getDb().$transaction((tx) => runPayoutRefresh({ shopId }, tx, { id: randomUUID() }));
}

export async function buildCommission(
  shopId: string,
  orderId: string,
  affiliateId: string,
  overrides: Partial<{
    level: number;
    kind: string;
    sourceRef: string;
    amount: number;
    status: string;
    explanation: string;
    currency: string;
  }> = {},
) {
  return getDb().commission.create({
    data: {
      shopId,
      orderId,
      affiliateId,
      level: overrides.level ?? 1,
      kind: overrides.kind ?? "sale",
      sourceRef: overrides.sourceRef ?? "",
      amount: overrides.amount ?? 1_000,
      currency: overrides.currency ?? "USD",
      status: overrides.status ?? "pending",
      explanation: overrides.explanation ?? "10 % of 100.00",
    },
  });
}

export async function buildClick(
  shopId: string,
  affiliateId: string,
  overrides: Partial<{ createdAt: Date; userAgent: string; referrer: string; landingUrl: string }> = {},
) {
  return getDb().click.create({
    data: {
      shopId,
      affiliateId,
      clickId: `clk_${unique()}`,
      landingUrl: overrides.landingUrl ?? "https://shop.example/products/a",
      referrer: overrides.referrer ?? "https://blog.example/post",
      ipHash: "ip-hash-secret",
      userAgent: overrides.userAgent ?? "Mozilla/5.0 (test)",
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    },
  });
}

/** fetch against the test server with an API key (or none). */
export class ApiClient {
  constructor(
    private readonly url: (path: string) => string,
    private readonly key?: string,
  ) {}

  request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.key && !headers.has("authorization")) headers.set("authorization", `Bearer ${this.key}`);
    return fetch(this.url(path), { ...init, headers, redirect: "manual" });
  }

  get(path: string) {
    return this.request(path);
  }

  post(path: string, body?: unknown) {
    return this.send("POST", path, body);
  }

  patch(path: string, body: unknown) {
    return this.send("PATCH", path, body);
  }

  private send(method: string, path: string, body: unknown) {
    if (body === undefined) return this.request(path, { method });
    return this.request(path, {
      method,
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
  }
}

let payoutLines = 0;

/**
 * A pending payout with one approved, loose commission line of its amount
 * behind it: a pending payout shows its affiliate's loose balance and takes
 * the lines as it leaves pending (ADR 058).
 */
export async function buildPendingPayout(
  shopId: string,
  affiliateId: string,
  amount: number,
  overrides: Partial<{ currency: string; createdAt: Date; openKey: boolean }> = {},
) {
  const currency = overrides.currency ?? "USD";
  const payout = await getDb().payout.create({
    data: {
      shopId,
      affiliateId,
      amount,
      currency,
      status: "pending",
      openKey: overrides.openKey === false ? null : `${affiliateId}:${currency}`,
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    },
  });
  const order = await buildOrder(shopId, { affiliateId, currency });
  await buildCommission(shopId, order.id, affiliateId, {
    amount,
    status: "approved",
    currency,
    sourceRef: `payout-line-${payoutLines++}`,
  });
  return payout;
}

/**
 * Many pending payouts (given ids), each of its own affiliate (id
 * `aff-<payout id>`) with one loose line of its amount, in bulk: one pending
 * payout per affiliate and currency, as the refresh keeps them.
 */
export async function buildPendingPayoutsInBulk(shopId: string, campaignId: string, ids: string[], amount: number) {
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    await getDb().affiliate.createMany({
      data: part.map((id) => ({
        id: `aff-${id}`,
        shopId,
        campaignId,
        email: `${id}@bulk.example`,
        firstName: "Bulk",
        lastName: id,
        status: "approved",
        referralCode: `B${id}`.toUpperCase(),
      })),
    });
    await getDb().payout.createMany({
      data: part.map((id) => ({
        id,
        shopId,
        affiliateId: `aff-${id}`,
        amount,
        currency: "USD",
        openKey: `aff-${id}:USD`,
      })),
    });
    await getDb().commission.createMany({
      data: part.map((id) => ({
        id: `line-${id}`,
        shopId,
        affiliateId: `aff-${id}`,
        kind: "bonus",
        amount,
        currency: "USD",
        status: "approved",
      })),
    });
  }
}

/**
 * Pays the shop's lines that `where` selects by hand, the way a paid payout
 * does: one paid payout per affiliate and currency holding them (a paid line
 * is a line in a paid payout: the money checker holds tests to that).
 */
export async function payLinesByHand(shopId: string, ids?: string[]) {
  const db = getDb();
  const lines = await db.commission.findMany({
    where: { shopId, ...(ids ? { id: { in: ids } } : {}), status: { in: ["pending", "approved"] }, payoutId: null },
  });
  const groups = new Map<string, typeof lines>();
  for (const l of lines)
    groups.set(`${l.affiliateId}:${l.currency}`, [...(groups.get(`${l.affiliateId}:${l.currency}`) ?? []), l]);
  for (const group of groups.values()) {
    const payout = await db.payout.create({
      data: {
        shopId,
        affiliateId: group[0]!.affiliateId,
        currency: group[0]!.currency,
        amount: group.reduce((sum, l) => sum + l.amount, 0),
        status: "paid",
        paidAt: new Date(),
      },
    });
    await db.commission.updateMany({
      where: { id: { in: group.map((l) => l.id) } },
      data: { status: "paid", payoutId: payout.id },
    });
  }
}
