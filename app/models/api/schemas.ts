import { z } from "zod";
import { msg } from "../../i18n/messages";
import { AFFILIATE_STATUSES } from "../affiliates/affiliate-statuses";
import {
  CAMPAIGN_STATUSES,
  COMMISSION_TYPES,
  COUPON_DISCOUNT_TYPES,
  LEVEL_BASES,
  RULE_COMMISSION_TYPES,
  RULE_KINDS,
  RULE_TARGETS,
} from "../campaigns/campaign-options";
import { ATTRIBUTION_SOURCES, SALE_STATUSES } from "../sales/sale-statuses";

// Zod schemas of the REST API /api/v1: request bodies, query strings and
// responses. The route files validate with them and the OpenAPI document
// (openapi.server.ts) is generated from the same objects, so the document
// cannot drift from what the API accepts. JSON fields are snake_case; money
// is integer minor units, percent rates are basis points (10000 = 100 %).

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_BPS = 10_000;
// Flat commissions: at most 1 000 000.00 in the shop's currency.
export const MAX_FLAT = 100_000_000;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

const id = () => z.string().regex(ID_PATTERN, "Not a valid id");
const isoDateTime = () => z.string().datetime({ offset: true }).describe("ISO 8601 date-time (UTC)");
const bool = () => z.boolean({ invalid_type_error: "Use true or false" });
// Campaign numbers, shared with the admin's campaign form: translation keys
// (app/i18n/messages.ts), which the API's door sends as their English.
const int = (min: number, max: number) =>
  z
    .number({ invalid_type_error: msg("Global:validation.whole") })
    .int(msg("Global:validation.whole"))
    .min(min, msg("Global:validation.numberMin", { min }))
    .max(max, msg("Global:validation.numberMax", { max }));

// ---------------------------------------------------------------- queries

/** A date (midnight UTC) or a date-time with an offset, e.g. 2025-01-31 or 2025-01-31T12:00:00Z. */
const isoDate = z.string().date();
const isoDateTimeWithOffset = z.string().datetime({ offset: true });
const queryDate = z
  .string()
  .refine((value) => isoDate.safeParse(value).success || isoDateTimeWithOffset.safeParse(value).success, {
    message: "Use an ISO 8601 date (2025-01-31) or date-time with offset (2025-01-31T12:00:00Z)",
  })
  .transform((value) => new Date(value));

export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ invalid_type_error: "Use a whole number" })
    .int("Use a whole number")
    .min(1, "Use at least 1")
    .max(MAX_PAGE_SIZE, `Use at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Page size, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`),
  cursor: z.string().max(200, "Not a valid cursor").optional().describe("The next_cursor of the previous page"),
});

const dateRange = {
  since: queryDate.optional().describe("Inclusive lower bound (ISO 8601 date or date-time)"),
  until: queryDate.optional().describe("Exclusive upper bound (ISO 8601 date or date-time)"),
};

export const campaignListQuerySchema = listQuerySchema.extend({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
});

export const affiliateListQuerySchema = listQuerySchema.extend({
  status: z.enum(AFFILIATE_STATUSES).optional(),
  campaign_id: id().optional(),
});

export const saleListQuerySchema = listQuerySchema.extend({
  status: z.enum(SALE_STATUSES).optional(),
  affiliate_id: id().optional(),
  ...dateRange,
});

export const clickListQuerySchema = listQuerySchema.extend({
  affiliate_id: id().optional(),
  ...dateRange,
});

export type ListQuery = z.infer<typeof listQuerySchema>;
export type CampaignListQuery = z.infer<typeof campaignListQuerySchema>;
export type AffiliateListQuery = z.infer<typeof affiliateListQuerySchema>;
export type SaleListQuery = z.infer<typeof saleListQuerySchema>;
export type ClickListQuery = z.infer<typeof clickListQuerySchema>;

export const idParamsSchema = z.object({ id: id().describe("Resource id") });
export const decisionParamsSchema = idParamsSchema.extend({ decision: z.enum(["approve", "deny"]) });

// ---------------------------------------------------------------- campaigns

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
    prefix: z
      .string()
      .trim()
      .max(20, msg("Global:validation.textMax", { max: 20 }))
      .regex(/^[A-Za-z0-9_-]*$/, msg("Campaigns:validation.prefix"))
      .toUpperCase()
      .default("")
      .describe("Prefix of the affiliates' codes, e.g. SUMMER- gives SUMMER-ANNA"),
    once_per_customer: bool().default(true),
  })
  .strict()
  .superRefine((coupon, ctx) => {
    if (coupon.discount_type === "percentage" && coupon.discount_value > MAX_BPS)
      ctx.addIssue({ code: "custom", path: ["discount_value"], message: "A percentage discount is at most 100 %" });
    if (coupon.enabled && coupon.discount_value === 0)
      ctx.addIssue({ code: "custom", path: ["discount_value"], message: msg("Campaigns:validation.discount") });
  });

export type CouponSettings = z.infer<typeof couponSettingsSchema>;

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
  })
  .strict()
  .superRefine((values, ctx) => {
    for (const [path, message] of Object.entries(campaignValueIssues(values)))
      ctx.addIssue({ code: "custom", path: [path], message });
  });

export const campaignUpdateSchema = z.object(campaignFields).partial().strict();

export type CampaignCreate = z.infer<typeof campaignCreateSchema>;
export type CampaignUpdate = z.infer<typeof campaignUpdateSchema>;

// ---------------------------------------------------------------- affiliates

export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

const couponCodesSchema = z
  .array(
    z
      .string()
      .trim()
      .min(3, "Use 3 to 64 characters")
      .max(64, "Use 3 to 64 characters")
      .regex(/^[!-~\u00a1-\uffff]+$/, "Use no spaces or control characters")
      .toUpperCase(),
  )
  .max(50, "At most 50 coupon codes")
  .superRefine((codes, ctx) => {
    const seen = new Set<string>();
    codes.forEach((code, index) => {
      if (seen.has(code)) ctx.addIssue({ code: "custom", path: [index], message: `${code} is listed twice` });
      seen.add(code);
    });
  })
  .describe("Stored upper-cased, unique per shop; replaces all codes when given");

const affiliateFields = {
  email: z
    .string({ required_error: "Enter an e-mail address" })
    .trim()
    .toLowerCase()
    .max(254)
    .email("Enter a valid e-mail address"),
  first_name: z
    .string({ required_error: "Enter a first name" })
    .trim()
    .min(1, "Enter a first name")
    .max(100, "Use at most 100 characters"),
  last_name: z.string().trim().max(100, "Use at most 100 characters"),
  status: z.enum(AFFILIATE_STATUSES),
  campaign_id: id(),
  parent_id: id().nullable().describe("MLM upline; must not create a cycle"),
  referral_code: z
    .string()
    .trim()
    .regex(REFERRAL_CODE_PATTERN, "Use 3 to 32 letters, digits, - or _")
    .toUpperCase()
    .describe("Stored upper-cased, unique per shop"),
  coupon_codes: couponCodesSchema,
};

export const affiliateCreateSchema = z
  .object({
    ...affiliateFields,
    last_name: affiliateFields.last_name.default(""),
    status: affiliateFields.status
      .optional()
      .describe("Default: approved when the campaign auto-approves affiliates, else pending"),
    campaign_id: affiliateFields.campaign_id.optional().describe("Default: the shop's default campaign"),
    parent_id: affiliateFields.parent_id.default(null),
    referral_code: affiliateFields.referral_code.optional().describe("Generated from the name when not given"),
    coupon_codes: affiliateFields.coupon_codes.default([]),
  })
  .strict();

export const affiliateUpdateSchema = z.object(affiliateFields).partial().strict();

export type AffiliateCreate = z.infer<typeof affiliateCreateSchema>;
export type AffiliateUpdate = z.infer<typeof affiliateUpdateSchema>;

// ---------------------------------------------------------------- responses

export const errorResponseSchema = z.object({
  error: z.object({
    code: z
      .string()
      .describe("unauthenticated, not_found, validation_failed, conflict, bad_request, method_not_allowed, ..."),
    message: z.string(),
    fields: z.record(z.string()).optional().describe("Field path → message (validation errors)"),
  }),
});

export const shopSchema = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string(),
  url: z.string(),
  currency: z.string(),
  money_format: z.string(),
  timezone: z.string(),
  referral_param: z.string(),
  attribution_model: z.string().describe("first_click | last_click"),
});

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
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});

export const affiliateSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: z.enum(AFFILIATE_STATUSES),
  campaign_id: z.string(),
  parent_id: z.string().nullable(),
  referral_code: z.string(),
  referral_link: z.string().describe("{app url}/r/{shop handle}/{code}: the short link, naming its shop"),
  store_link: z.string().describe("https://{shop domain}/?{referral_param}={code}"),
  coupon_codes: z.array(z.string()),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});

export const saleCommissionSchema = z.object({
  id: z.string(),
  affiliate_id: z.string(),
  level: z.number().int(),
  kind: z.string().describe("sale | refund | cancel"),
  amount: z.number().int().describe("Minor units"),
  currency: z.string(),
  status: z.string(),
  explanation: z.string(),
});

export const saleSchema = z.object({
  id: z.string(),
  order_id: z.string().describe("Numeric Shopify order id, as a string (exceeds 2^53)"),
  order_gid: z.string(),
  name: z.string(),
  currency: z.string(),
  subtotal: z.number().int(),
  total: z.number().int(),
  refunded_amount: z.number().int(),
  status: z.enum(SALE_STATUSES),
  placed_at: isoDateTime(),
  created_at: isoDateTime(),
  attribution: z.object({
    affiliate_id: z.string().nullable(),
    source: z.enum(ATTRIBUTION_SOURCES),
    reason: z.string(),
    click_id: z.string().nullable(),
  }),
  commissions: z.array(saleCommissionSchema),
});

export const clickSchema = z.object({
  id: z.string(),
  click_id: z.string(),
  affiliate_id: z.string(),
  source: z.string().describe("link | proxy"),
  landing_url: z.string(),
  referrer: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: isoDateTime(),
});

export function pageSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export type ShopOut = z.infer<typeof shopSchema>;
export type CampaignOut = z.infer<typeof campaignSchema>;
export type AffiliateOut = z.infer<typeof affiliateSchema>;
export type SaleOut = z.infer<typeof saleSchema>;
export type ClickOut = z.infer<typeof clickSchema>;
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
