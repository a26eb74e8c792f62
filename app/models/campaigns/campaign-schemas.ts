import { z } from "zod";
import { msg } from "../../i18n/messages";
import {
  CAMPAIGN_STATUSES,
  COMMISSION_TYPES,
  COUPON_DISCOUNT_TYPES,
  LEVEL_BASES,
  RULE_COMMISSION_TYPES,
  RULE_KINDS,
  RULE_TARGETS,
} from "./campaign-options";
import { couponPrefixSchema, couponValueIssue } from "./coupon-rules";
import { RENEWAL_COMMISSION_TYPES, RENEWAL_POLICIES } from "../subscriptions/renewal-policy";

// A campaign's vocabulary: its fields and their rules (REST API bodies and
// the admin's campaign form validate with these), and the campaign as the
// REST API returns it. JSON fields are snake_case; money is integer minor
// units, percent rates are basis points (10000 = 100 %). The REST adapter
// (models/api) and its OpenAPI document use these objects as they are.

export const MAX_BPS = 10_000;
// Flat commissions: at most 1 000 000.00 in the shop's currency.
export const MAX_FLAT = 100_000_000;

const isoDateTime = () => z.string().datetime({ offset: true }).describe("ISO 8601 date-time (UTC)");
const bool = () => z.boolean({ invalid_type_error: "Use true or false" });
// Translation keys (app/i18n/messages.ts), which the API's door sends as their English.
const int = (min: number, max: number) =>
  z
    .number({ invalid_type_error: msg("Global:validation.whole") })
    .int(msg("Global:validation.whole"))
    .min(min, msg("Global:validation.numberMin", { min }))
    .max(max, msg("Global:validation.numberMax", { max }));

/** Field errors for a commission amount in the unit its type implies. */
export function commissionValueIssue(type: string, value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (type === "percent" && value > MAX_BPS) return `A percent commission is at most ${MAX_BPS} basis points (100 %)`;
  return null;
}

export const campaignLevelSchema = z
  .object({
    level: int(2, 10).describe("MLM level: 2 = the referrer's upline, up to 10"),
    basis: z.enum(LEVEL_BASES).default("percent_of_sale"),
    rate: int(0, MAX_BPS).describe("Basis points"),
  })
  .strict();

const GID_PATTERN = {
  product: /^gid:\/\/shopify\/Product\/\d{1,20}$/,
  collection: /^gid:\/\/shopify\/Collection\/\d{1,20}$/,
};

export const commissionRuleSchema = z
  .object({
    target_type: z.enum(RULE_TARGETS),
    target_gid: z.string().max(100).describe("gid://shopify/Product/… or gid://shopify/Collection/…"),
    target_title: z
      .string()
      .max(255)
      .nullish()
      .describe("The product's or collection's title, as shown to the merchant"),
    target_image_url: z.string().url().max(2000).nullish().describe("Its image, as shown to the merchant"),
    kind: z.enum(RULE_KINDS).default("rate").describe("rate: own commission; exclude: those lines earn nothing"),
    commission_type: z.enum(RULE_COMMISSION_TYPES).default("percent"),
    value: int(0, MAX_FLAT).default(0).describe("Basis points for percent, minor units for flat_item; 0 for exclude"),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (!GID_PATTERN[rule.target_type].test(rule.target_gid)) {
      const name = rule.target_type === "product" ? "Product" : "Collection";
      ctx.addIssue({
        code: "custom",
        path: ["target_gid"],
        message: msg("Campaigns:validation.target", { example: `gid://shopify/${name}/<number>` }),
      });
    }
    const issue = commissionValueIssue(rule.commission_type, rule.value);
    if (issue) ctx.addIssue({ code: "custom", path: ["value"], message: issue });
  });

const levelsSchema = z
  .array(campaignLevelSchema)
  .max(9, msg("Campaigns:validation.levels", { max: 9 }))
  .superRefine((levels, ctx) => {
    const seen = new Set<number>();
    levels.forEach((level, index) => {
      if (seen.has(level.level))
        ctx.addIssue({ code: "custom", path: [index, "level"], message: `Level ${level.level} is listed twice` });
      seen.add(level.level);
    });
  });

const rulesSchema = z
  .array(commissionRuleSchema)
  .max(500, msg("Campaigns:validation.rules", { max: 500 }))
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, index) => {
      const key = `${rule.target_type} ${rule.target_gid}`;
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: [index, "target_gid"], message: msg("Campaigns:validation.targetTwice") });
      seen.add(key);
    });
  });

/**
 * Coupon settings of a campaign: the discount its affiliates' coupon codes
 * give customers (a template; creating the codes in Shopify is separate).
 */
export const couponSettingsSchema = z
  .object({
    enabled: bool().default(false),
    discount_type: z.enum(COUPON_DISCOUNT_TYPES).default("percentage"),
    discount_value: int(0, MAX_FLAT)
      .default(1000)
      .describe("Basis points for percentage, minor units for fixed_amount"),
    prefix: couponPrefixSchema()
      .toUpperCase()
      .default("")
      .describe("Prefix of the affiliates' codes, e.g. SUMMER- gives SUMMER-ANNA"),
    once_per_customer: bool().default(true),
  })
  .strict()
  .superRefine((coupon, ctx) => {
    const issue = couponValueIssue({
      enabled: coupon.enabled,
      discountType: coupon.discount_type,
      stored: coupon.discount_value,
    });
    if (issue) ctx.addIssue({ code: "custom", path: ["discount_value"], message: issue });
  });

export type CouponSettings = z.infer<typeof couponSettingsSchema>;

/** Renewal orders a subscription contract creates: whether and how long they pay, at which rate (ADR 047). */
export const renewalSettingsSchema = z
  .object({
    policy: z
      .enum(RENEWAL_POLICIES)
      .default("none")
      .describe("none; orders: the first `limit` renewals; months: `limit` months after the first order; lifetime"),
    limit: int(1, 1000).nullable().default(null).describe("Renewal orders or months; required for orders and months"),
    commission_type: z
      .enum(RENEWAL_COMMISSION_TYPES)
      .nullable()
      .default(null)
      .describe("A renewal's own rate; null: the campaign's own terms"),
    commission_value: int(0, MAX_FLAT)
      .nullable()
      .default(null)
      .describe("Basis points for percent, minor units for flat_order"),
  })
  .strict()
  .superRefine((r, ctx) => {
    if ((r.policy === "orders" || r.policy === "months") && r.limit === null)
      ctx.addIssue({ code: "custom", path: ["limit"], message: msg(`Campaigns:validation.renewalLimit.${r.policy}`) });
    if ((r.commission_type === null) !== (r.commission_value === null))
      ctx.addIssue({ code: "custom", path: ["commission_value"], message: msg("Campaigns:validation.renewalRate") });
    const issue = r.commission_type ? commissionValueIssue(r.commission_type, r.commission_value) : null;
    if (issue) ctx.addIssue({ code: "custom", path: ["commission_value"], message: issue });
  });

export type RenewalSettings = z.infer<typeof renewalSettingsSchema>;

const campaignFields = {
  name: z
    .string({ required_error: msg("Campaigns:validation.name") })
    .trim()
    .min(1, msg("Campaigns:validation.name"))
    .max(100, msg("Global:validation.textMax", { max: 100 })),
  status: z.enum(CAMPAIGN_STATUSES),
  is_default: bool().describe("Setting true clears it on the shop's other campaigns"),
  commission_type: z.enum(COMMISSION_TYPES),
  commission_value: int(0, MAX_FLAT).describe("Basis points for percent, minor units for the flat types"),
  new_customer_value: int(0, MAX_FLAT)
    .nullable()
    .describe("Same unit as commission_value; for a customer's first order"),
  cookie_days: int(1, 365),
  auto_approve_affiliates: bool(),
  auto_approve_orders: bool(),
  approval_hold_days: int(0, 365),
  lifetime_customer_link: bool(),
  levels: levelsSchema.describe("MLM levels; replaces all levels when given"),
  rules: rulesSchema.describe("Product/collection rules; replaces all rules when given"),
  coupon: couponSettingsSchema.describe("Coupon settings; fields not given take their defaults"),
  renewals: renewalSettingsSchema.describe("Subscription renewals; fields not given take their defaults"),
};

/** Cross-field check: percent values are at most 100 %. Also run on a PATCH merged with the stored row. */
export function campaignValueIssues(values: {
  commission_type: string;
  commission_value: number;
  new_customer_value?: number | null;
}) {
  const fields: Record<string, string> = {};
  const value = commissionValueIssue(values.commission_type, values.commission_value);
  if (value) fields.commission_value = value;
  const first = commissionValueIssue(values.commission_type, values.new_customer_value);
  if (first) fields.new_customer_value = first;
  return fields;
}

export const campaignCreateSchema = z
  .object({
    name: campaignFields.name,
    status: campaignFields.status.default("draft"),
    is_default: campaignFields.is_default.default(false),
    commission_type: campaignFields.commission_type.default("percent"),
    commission_value: campaignFields.commission_value.default(1000),
    new_customer_value: campaignFields.new_customer_value.default(null),
    cookie_days: campaignFields.cookie_days.default(30),
    auto_approve_affiliates: campaignFields.auto_approve_affiliates.default(false),
    auto_approve_orders: campaignFields.auto_approve_orders.default(false),
    approval_hold_days: campaignFields.approval_hold_days.default(0),
    lifetime_customer_link: campaignFields.lifetime_customer_link.default(false),
    levels: campaignFields.levels.default([]),
    rules: campaignFields.rules.default([]),
    coupon: campaignFields.coupon.default({}),
    renewals: campaignFields.renewals.default({}),
  })
  .strict()
  .superRefine((values, ctx) => {
    for (const [path, message] of Object.entries(campaignValueIssues(values)))
      ctx.addIssue({ code: "custom", path: [path], message });
  });

export const campaignUpdateSchema = z.object(campaignFields).partial().strict();

export type CampaignCreate = z.infer<typeof campaignCreateSchema>;
export type CampaignUpdate = z.infer<typeof campaignUpdateSchema>;

// ---------------------------------------------------------------- the campaign as returned

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  is_default: z.boolean(),
  commission_type: z.enum(COMMISSION_TYPES),
  commission_value: z.number().int(),
  new_customer_value: z.number().int().nullable(),
  cookie_days: z.number().int(),
  auto_approve_affiliates: z.boolean(),
  auto_approve_orders: z.boolean(),
  approval_hold_days: z.number().int(),
  lifetime_customer_link: z.boolean(),
  levels: z.array(z.object({ level: z.number().int(), basis: z.enum(LEVEL_BASES), rate: z.number().int() })),
  rules: z.array(
    z.object({
      target_type: z.enum(RULE_TARGETS),
      target_gid: z.string(),
      target_title: z.string().nullish(),
      target_image_url: z.string().nullish(),
      kind: z.enum(RULE_KINDS),
      commission_type: z.enum(RULE_COMMISSION_TYPES),
      value: z.number().int(),
    }),
  ),
  coupon: z.object({
    enabled: z.boolean(),
    discount_type: z.enum(COUPON_DISCOUNT_TYPES),
    discount_value: z.number().int(),
    prefix: z.string(),
    once_per_customer: z.boolean(),
  }),
  renewals: z.object({
    policy: z.enum(RENEWAL_POLICIES),
    limit: z.number().int().nullable(),
    commission_type: z.enum(RENEWAL_COMMISSION_TYPES).nullable(),
    commission_value: z.number().int().nullable(),
  }),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});

export type CampaignOut = z.infer<typeof campaignSchema>;

/** A campaign row with its levels and rules → the REST API's campaign (also what the admin's campaign screens read). */
export interface CampaignRow {
  id: string;
  name: string;
  status: string;
  isDefault: boolean;
  commissionType: string;
  commissionValue: number;
  newCustomerValue: number | null;
  cookieDays: number;
  autoApproveAffiliates: boolean;
  autoApproveOrders: boolean;
  approvalHoldDays: number;
  lifetimeCustomerLink: boolean;
  createdAt: Date;
  updatedAt: Date;
  levels: { level: number; basis: string; rate: number }[];
  rules: {
    targetType: string;
    targetGid: string;
    targetTitle: string | null;
    targetImageUrl: string | null;
    kind: string;
    commissionType: string;
    value: number;
  }[];
  couponEnabled: boolean;
  couponDiscountType: string;
  couponDiscountValue: number;
  couponPrefix: string;
  couponOncePerCustomer: boolean;
  renewalPolicy: string;
  renewalLimit: number | null;
  renewalCommissionType: string | null;
  renewalCommissionValue: number | null;
}

export function serializeCampaign(row: CampaignRow): CampaignOut {
  return {
    id: row.id,
    name: row.name,
    status: row.status as CampaignOut["status"],
    is_default: row.isDefault,
    commission_type: row.commissionType as CampaignOut["commission_type"],
    commission_value: row.commissionValue,
    new_customer_value: row.newCustomerValue,
    cookie_days: row.cookieDays,
    auto_approve_affiliates: row.autoApproveAffiliates,
    auto_approve_orders: row.autoApproveOrders,
    approval_hold_days: row.approvalHoldDays,
    lifetime_customer_link: row.lifetimeCustomerLink,
    levels: [...row.levels]
      .sort((a, b) => a.level - b.level)
      .map((l) => ({ level: l.level, basis: l.basis as CampaignOut["levels"][number]["basis"], rate: l.rate })),
    rules: [...row.rules]
      .sort((a, b) => a.targetType.localeCompare(b.targetType) || a.targetGid.localeCompare(b.targetGid))
      .map((r) => ({
        target_type: r.targetType as CampaignOut["rules"][number]["target_type"],
        target_gid: r.targetGid,
        target_title: r.targetTitle,
        target_image_url: r.targetImageUrl,
        kind: r.kind as CampaignOut["rules"][number]["kind"],
        commission_type: r.commissionType as CampaignOut["rules"][number]["commission_type"],
        value: r.value,
      })),
    coupon: {
      enabled: row.couponEnabled,
      discount_type: row.couponDiscountType as CampaignOut["coupon"]["discount_type"],
      discount_value: row.couponDiscountValue,
      prefix: row.couponPrefix,
      once_per_customer: row.couponOncePerCustomer,
    },
    renewals: {
      policy: row.renewalPolicy as CampaignOut["renewals"]["policy"],
      limit: row.renewalLimit,
      commission_type: row.renewalCommissionType as CampaignOut["renewals"]["commission_type"],
      commission_value: row.renewalCommissionValue,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
