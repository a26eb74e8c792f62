import { z } from "zod";
import { ID_PATTERN } from "../../lib/ids";
import { AFFILIATE_STATUSES } from "../affiliates/affiliate-statuses";
import { CAMPAIGN_STATUSES } from "../campaigns/campaign-options";
import { ATTRIBUTION_SOURCES, SALE_STATUSES } from "../sales/sale-statuses";

// Zod schemas of the REST API /api/v1: query strings and responses; the
// bodies are the domains' own schemas (campaigns/campaign-schemas.ts,
// affiliates/affiliate-schemas.ts), which this adapter re-exports for its
// routes and its OpenAPI document. The route files validate with them and the
// OpenAPI document (openapi.server.ts) is generated from the same objects, so
// the document cannot drift from what the API accepts. JSON fields are
// snake_case; money is integer minor units, percent rates are basis points
// (10000 = 100 %).

export {
  campaignCreateSchema,
  campaignSchema,
  campaignUpdateSchema,
  type CampaignCreate,
  type CampaignOut,
  type CampaignUpdate,
} from "../campaigns/campaign-schemas";
export {
  affiliateCreateSchema,
  affiliateUpdateSchema,
  type AffiliateCreate,
  type AffiliateUpdate,
} from "../affiliates/affiliate-schemas";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

const id = () => z.string().regex(ID_PATTERN, "Not a valid id");
const isoDateTime = () => z.string().datetime({ offset: true }).describe("ISO 8601 date-time (UTC)");

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
  tag: z.string().trim().toLowerCase().min(1).max(40).optional().describe("Only affiliates with this tag"),
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
export type CampaignListQuery = z.infer<typeof campaignListQuerySchema>;
export type AffiliateListQuery = z.infer<typeof affiliateListQuerySchema>;
export type SaleListQuery = z.infer<typeof saleListQuerySchema>;
export type ClickListQuery = z.infer<typeof clickListQuerySchema>;

export const idParamsSchema = z.object({ id: id().describe("Resource id") });
export const decisionParamsSchema = idParamsSchema.extend({ decision: z.enum(["approve", "deny"]) });

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
  auto_apply_discount: z
    .boolean()
    .describe("The affiliates' short links apply their discount code at checkout (Settings › Promote link)"),
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
  aliases: z
    .array(
      z.object({
        code: z.string(),
        source: z.string().describe("The app it came from: uppromote | goaffpro | refersion | collabs | csv"),
      }),
    )
    .describe("Codes from the affiliate app the shop used before: links with them still credit the affiliate"),
  tags: z.array(z.string()).describe("The merchant's labels (lower-case), set by the Flow action tag-affiliate"),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});

export const saleCommissionSchema = z.object({
  id: z.string(),
  affiliate_id: z.string(),
  level: z.number().int(),
  kind: z.string().describe("sale | refund | cancel | adjustment"),
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
    reason: z.string().describe("Why the order was (not) credited, in English"),
    reason_key: z
      .string()
      .nullable()
      .describe("The reason's message key (Sales namespace); null for orders recorded before reasons were keys"),
    reason_values: z
      .record(z.unknown())
      .describe("The values the reason's key is written with (affiliate, days, notes on refused candidates)"),
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
export type AffiliateOut = z.infer<typeof affiliateSchema>;
export type SaleOut = z.infer<typeof saleSchema>;
export type ClickOut = z.infer<typeof clickSchema>;
