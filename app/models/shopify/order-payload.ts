import { z } from "zod";
import { toMinorUnits } from "./money-string";
import { impliedRate } from "../currency/exchange-rate";

// The parts of Shopify's order webhook payload (orders/create, orders/paid,
// orders/cancelled) the app uses. Ids may be strings (see safe-json.ts).
const id = z.union([z.string(), z.number()]).transform(String);
const money = z.union([z.string(), z.number()]).nullish();
// Shopify's MoneyBag (`*_set`): the amount in the shop's currency and in the
// customer's (presentment) currency. The plain fields are shop money too, but
// the bag says so explicitly and carries the other side.
const moneyAmount = z.object({ amount: z.union([z.string(), z.number()]), currency_code: z.string().length(3) });
const moneySet = z.object({ shop_money: moneyAmount, presentment_money: moneyAmount }).nullish();

const lineItemSchema = z.object({
  id,
  admin_graphql_api_id: z.string().optional(),
  product_id: id.nullish(),
  variant_id: id.nullish(),
  // Orders webhooks of API 2026-10 on: the selling plan of a subscription line (null otherwise).
  selling_plan_id: id.nullish(),
  quantity: z.number().int().nonnegative(),
  price: money,
  price_set: moneySet,
  total_discount: money,
  discount_allocations: z
    .array(z.object({ amount: money, amount_set: moneySet }))
    .optional()
    .default([]),
  gift_card: z.boolean().optional(),
});

export const orderPayloadSchema = z.object({
  id,
  admin_graphql_api_id: z.string().min(1),
  name: z.string().optional().default(""),
  email: z.string().nullish(),
  contact_email: z.string().nullish(),
  currency: z.string().length(3),
  subtotal_price: money,
  subtotal_price_set: moneySet,
  total_price: money,
  total_price_set: moneySet,
  presentment_currency: z.string().length(3).nullish(),
  checkout_token: z.string().nullish(),
  // "web", "pos", ...; "subscription_contract" for an order a subscription
  // contract's billing attempt created (a renewal, ADR 047).
  source_name: z.string().nullish(),
  referring_site: z.string().nullish(),
  created_at: z.string().nullish(),
  processed_at: z.string().nullish(),
  cancelled_at: z.string().nullish(),
  discount_codes: z
    .array(z.object({ code: z.string() }))
    .optional()
    .default([]),
  note_attributes: z
    .array(z.object({ name: z.string(), value: z.unknown() }))
    .optional()
    .default([]),
  customer: z
    .object({
      id: id.nullish(),
      admin_graphql_api_id: z.string().nullish(),
      email: z.string().nullish(),
      orders_count: z.number().nullish(),
    })
    .nullish(),
  line_items: z.array(lineItemSchema).default([]),
  fulfillment_status: z.string().nullish(),
});

export type OrderPayload = z.infer<typeof orderPayloadSchema>;

export interface OrderLine {
  id: string;
  productGid: string | null;
  quantity: number;
  // After line and order discounts, before tax and shipping (minor units).
  amount: number;
  refundedQuantity: number;
  giftCard: boolean;
  /** The line's selling plan, when the payload says (kept only then, so older rows read alike). */
  sellingPlanGid?: string;
}

export interface NormalizedOrder {
  gid: string;
  name: string;
  email: string | null;
  customerGid: string | null;
  currency: string;
  subtotal: number;
  total: number;
  /** What the customer paid in their own currency, when it is not the shop's (Shopify Markets). */
  presentment: { currency: string; total: number; rate: string | null } | null;
  checkoutToken: string | null;
  /** Created by a subscription contract (a renewal), not by a checkout. */
  isRenewal: boolean;
  placedAt: Date;
  cancelledAt: Date | null;
  discountCodes: string[];
  attributes: Record<string, string>;
  lines: OrderLine[];
  /** The host of the page the buyer came from (Shopify's referring_site), lower case, without "www.". */
  referringHost: string | null;
}

/** The host of a referring URL ("https://www.Deals.example/x" → "deals.example"); null when there is none. */
export function referringHostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, "");
    return host && host.length <= 255 ? host : null;
  } catch {
    return null;
  }
}

/**
 * The commission basis is the order subtotal after discounts, before tax and
 * shipping (Shopify's subtotal_price). Line amounts are price × quantity
 * minus their own discount allocations; a discount applied to the whole
 * order that Shopify did not allocate to lines is spread over the lines in
 * proportion to their amounts (largest remainder), so the lines always add
 * up to the subtotal exactly.
 */
export function normalizeOrder(payload: OrderPayload): NormalizedOrder {
  const currency = payload.currency.toUpperCase();
  // Shop money wherever the bag gives it: commissions are in the shop's currency.
  const shop = (plain: string | number | null | undefined, bag: z.infer<typeof moneySet>) =>
    toMinorUnits(bag ? bag.shop_money.amount : plain, currency);
  const raw = payload.line_items.map((li) => {
    const gross = shop(li.price, li.price_set) * li.quantity;
    const allocated = li.discount_allocations.reduce((sum, d) => sum + shop(d.amount, d.amount_set), 0);
    const lineDiscount = allocated > 0 ? allocated : toMinorUnits(li.total_discount, currency);
    return {
      id: li.id,
      productGid: li.product_id ? `gid://shopify/Product/${li.product_id}` : null,
      quantity: li.quantity,
      amount: Math.max(0, gross - lineDiscount),
      refundedQuantity: 0,
      giftCard: li.gift_card === true,
      ...(li.selling_plan_id ? { sellingPlanGid: `gid://shopify/SellingPlan/${li.selling_plan_id}` } : {}),
    };
  });
  const linesTotal = raw.reduce((s, l) => s + l.amount, 0);
  const subtotal =
    payload.subtotal_price_set || payload.subtotal_price != null
      ? shop(payload.subtotal_price, payload.subtotal_price_set)
      : linesTotal;
  const total = shop(payload.total_price, payload.total_price_set);
  const lines = spreadDifference(raw, Math.max(0, subtotal));
  const when = (v: string | null | undefined) => (v ? new Date(v) : null);
  const attributes: Record<string, string> = {};
  for (const a of payload.note_attributes) if (typeof a.value === "string") attributes[a.name] = a.value;
  const customerGid =
    payload.customer?.admin_graphql_api_id ??
    (payload.customer?.id ? `gid://shopify/Customer/${payload.customer.id}` : null);
  return {
    gid: payload.admin_graphql_api_id,
    name: payload.name,
    email: (payload.email || payload.contact_email || payload.customer?.email || null)?.toLowerCase() ?? null,
    customerGid,
    currency,
    subtotal: lines.reduce((s, l) => s + l.amount, 0),
    total,
    presentment: presentmentOf(payload, currency, total),
    checkoutToken: payload.checkout_token ?? null,
    isRenewal: payload.source_name === "subscription_contract",
    placedAt: when(payload.processed_at) ?? when(payload.created_at) ?? new Date(),
    cancelledAt: when(payload.cancelled_at),
    discountCodes: payload.discount_codes.map((d) => d.code.trim().toUpperCase()).filter(Boolean),
    attributes,
    lines,
    referringHost: referringHostOf(payload.referring_site),
  };
}

/**
 * The customer's side of an order placed in another currency: the total in
 * that currency and the rate Shopify's two totals imply. Null for an order
 * in the shop's currency, or when the payload carries no bag to tell.
 */
function presentmentOf(payload: OrderPayload, shopCurrency: string, shopTotal: number) {
  const bag = payload.total_price_set;
  const currency = (bag?.presentment_money.currency_code ?? payload.presentment_currency ?? "").toUpperCase();
  if (!bag || !currency || currency === shopCurrency) return null;
  const total = toMinorUnits(bag.presentment_money.amount, currency);
  return {
    currency,
    total,
    rate: impliedRate({ amount: shopTotal, currency: shopCurrency }, { amount: total, currency }),
  };
}

function spreadDifference<T extends { amount: number }>(lines: T[], target: number): T[] {
  const total = lines.reduce((s, l) => s + l.amount, 0);
  if (total === target || total === 0) return lines;
  // Scale every line by target/total, then hand the units lost to rounding
  // down to the lines with the largest remainders.
  const scaled = lines.map((l, i) => {
    const exact = (l.amount * target) / total;
    return { i, floor: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let missing = target - scaled.reduce((s, x) => s + x.floor, 0);
  for (const x of [...scaled].sort((a, b) => b.rest - a.rest || a.i - b.i)) {
    if (missing <= 0) break;
    x.floor += 1;
    missing -= 1;
  }
  return lines.map((l, i) => ({ ...l, amount: scaled[i]!.floor }));
}
