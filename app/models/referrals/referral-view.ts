import { z } from "zod";

// How a stored Referral reads on the history screens, the CSV and the REST
// API: its status, its reward as an amount or a percentage, the fraud checks
// out of their JSON column, and where the reward stands. Pure.

export const REFERRAL_STATUSES = ["pending", "rewarded", "blocked", "cancelled"] as const;
export const REFERRAL_SOURCES = ["code", "link"] as const;
export const REWARD_KINDS = ["discount_code", "store_credit", "cash"] as const;
export const CHECK_OUTCOMES = ["pass", "flag", "block"] as const;

export type RewardAmount =
  { type: "percent"; basisPoints: number } | { type: "money"; amount: number; currency: string };

/**
 * A discount-code reward may be a percentage (basis points in rewardValue);
 * its rewardCurrency is then not an ISO 4217 code (the order job writes "%").
 */
export function rewardAmount(r: { rewardKind: string; rewardValue: number; rewardCurrency: string }): RewardAmount {
  if (r.rewardKind === "discount_code" && !/^[A-Z]{3}$/.test(r.rewardCurrency)) {
    return { type: "percent", basisPoints: r.rewardValue };
  }
  return { type: "money", amount: r.rewardValue, currency: r.rewardCurrency };
}

// The checks column (the referral engine writes it: app/models/referrals/checks.ts).
// Read leniently: a row that does not parse is left out, never a 500.
const checkSchema = z.object({
  rule: z.string().max(64),
  outcome: z.enum(CHECK_OUTCOMES),
  detail: z.string().max(200),
  values: z.record(z.union([z.string(), z.number()])).optional(),
});
export type StoredCheck = z.infer<typeof checkSchema>;

export function parseChecks(json: string | null | undefined): StoredCheck[] {
  let value: unknown;
  try {
    value = JSON.parse(json ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = checkSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export type RewardState = "waiting" | "due" | "given" | "withheld" | "cancelled";

/** Where the advocate's reward stands, for the words next to it. */
export function rewardState(
  r: { status: string; holdUntil: Date; rewardedAt: Date | null },
  now: Date = new Date(),
): RewardState {
  if (r.status === "rewarded" || r.rewardedAt) return "given";
  if (r.status === "blocked") return "withheld";
  if (r.status === "cancelled") return "cancelled";
  return r.holdUntil.getTime() > now.getTime() ? "waiting" : "due";
}

/** The numeric id of an order gid (gid://shopify/Order/123 → "123"), or null. */
export function orderNumber(orderGid: string): string | null {
  const match = /^gid:\/\/shopify\/Order\/(\d{1,20})$/.exec(orderGid);
  return match ? match[1]! : null;
}

/**
 * Where the referral screen's order link goes: embedded, the order in the
 * Shopify admin (App Bridge opens shopify://admin URLs); standalone, the sale
 * this app recorded for the order, else the order on admin.shopify.com.
 */
export function orderLink(
  order: { number: string | null; saleId: string | null },
  ctx: { mode: "embedded" | "standalone"; role: string; domain: string },
): string | null {
  if (ctx.mode === "embedded" && order.number) return `shopify://admin/orders/${order.number}`;
  if (order.saleId) return `/${ctx.role}/sales/${order.saleId}`;
  if (!order.number) return null;
  return `https://admin.shopify.com/store/${ctx.domain.replace(/\.myshopify\.com$/, "")}/orders/${order.number}`;
}
