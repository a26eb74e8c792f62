import { parseReasonValues } from "../attribution/attribution-reason";
import type { AffiliateOut, ClickOut, SaleOut, ShopOut } from "./schemas";
import { affiliateLink } from "../../lib/affiliate-links";

// Database rows → the snake_case JSON of /api/v1. Pure functions: whatever
// they need beyond the row (the app URL, the shop) is passed in.

interface ShopRow {
  id: string;
  domain: string;
  name: string;
  url: string;
  currency: string;
  moneyFormat: string;
  timezone: string;
  referralParam: string;
  attributionModel: string;
  autoApplyDiscount: boolean;
}

export function serializeShop(shop: ShopRow): ShopOut {
  return {
    id: shop.id,
    domain: shop.domain,
    name: shop.name,
    url: shop.url,
    currency: shop.currency,
    money_format: shop.moneyFormat,
    timezone: shop.timezone,
    referral_param: shop.referralParam,
    attribution_model: shop.attributionModel,
    auto_apply_discount: shop.autoApplyDiscount,
  };
}

export interface AffiliateRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  campaignId: string;
  parentId: string | null;
  referralCode: string;
  createdAt: Date;
  updatedAt: Date;
  coupons: { code: string }[];
  referralAliases: { code: string; source: string }[];
  tags: { tag: string }[];
}

export interface LinkContext {
  appUrl: string;
  shopDomain: string;
  referralParam: string;
}

/** An affiliate's short link on the app's domain (naming the shop) and link to the store. */
export function referralLinks(referralCode: string, links: LinkContext) {
  const code = encodeURIComponent(referralCode);
  return {
    referral_link: affiliateLink(links.appUrl, referralCode, links.shopDomain),
    store_link: `https://${links.shopDomain}/?${encodeURIComponent(links.referralParam)}=${code}`,
  };
}

export function serializeAffiliate(row: AffiliateRow, links: LinkContext): AffiliateOut {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    status: row.status as AffiliateOut["status"],
    campaign_id: row.campaignId,
    parent_id: row.parentId,
    referral_code: row.referralCode,
    ...referralLinks(row.referralCode, links),
    coupon_codes: row.coupons.map((c) => c.code).sort(),
    aliases: row.referralAliases.map((a) => ({ code: a.code, source: a.source })),
    tags: row.tags.map((t) => t.tag).sort(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface SaleRow {
  id: string;
  shopifyGid: string;
  name: string;
  currency: string;
  subtotal: number;
  total: number;
  refundedAmount: number;
  status: string;
  placedAt: Date;
  createdAt: Date;
  affiliateId: string | null;
  attributionSource: string;
  attributionReason: string;
  attributionReasonKey: string;
  attributionReasonValues: string;
  clickId: string | null;
  commissions: {
    id: string;
    affiliateId: string;
    level: number;
    kind: string;
    amount: number;
    currency: string;
    status: string;
    explanation: string;
    createdAt: Date;
  }[];
}

function reasonValuesOf(raw: string): Record<string, unknown> {
  return (parseReasonValues(raw) ?? {}) as Record<string, unknown>;
}

/** "gid://shopify/Order/820982911946154508" → "820982911946154508", kept a string (it exceeds 2^53). */
export function orderIdFromGid(gid: string): string {
  return gid.slice(gid.lastIndexOf("/") + 1);
}

/**
 * `explain` writes a stored commission explanation out and `reason` the
 * attribution reason (the API's are English); the reason's key and values go
 * beside it for clients that word it themselves.
 */
export function serializeSale(
  row: SaleRow,
  explain: (text: string, currency: string) => string = (text) => text,
  reason: (row: SaleRow) => string = (r) => r.attributionReason,
): SaleOut {
  return {
    id: row.id,
    order_id: orderIdFromGid(row.shopifyGid),
    order_gid: row.shopifyGid,
    name: row.name,
    currency: row.currency,
    subtotal: row.subtotal,
    total: row.total,
    refunded_amount: row.refundedAmount,
    status: row.status as SaleOut["status"],
    placed_at: row.placedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    attribution: {
      affiliate_id: row.affiliateId,
      source: row.attributionSource as SaleOut["attribution"]["source"],
      reason: reason(row),
      reason_key: row.attributionReasonKey || null,
      reason_values: row.attributionReasonKey ? reasonValuesOf(row.attributionReasonValues) : {},
      click_id: row.clickId,
    },
    commissions: [...row.commissions]
      .sort((a, b) => a.level - b.level || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((c) => ({
        id: c.id,
        affiliate_id: c.affiliateId,
        level: c.level,
        kind: c.kind,
        amount: c.amount,
        currency: c.currency,
        status: c.status,
        explanation: explain(c.explanation, c.currency),
      })),
  };
}

export interface ClickRow {
  id: string;
  clickId: string;
  affiliateId: string;
  source: string;
  landingUrl: string;
  referrer: string | null;
  userAgent: string | null;
  createdAt: Date;
}

/** The IP hash stays private: it is for deduplication, not for the merchant. */
export function serializeClick(row: ClickRow): ClickOut {
  return {
    id: row.id,
    click_id: row.clickId,
    affiliate_id: row.affiliateId,
    source: row.source,
    landing_url: row.landingUrl,
    referrer: row.referrer,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}
