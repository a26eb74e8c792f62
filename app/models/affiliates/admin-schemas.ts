import { z } from "zod";
import { affiliateCreateSchema } from "./affiliate-schemas";
import { ID_PATTERN } from "../../lib/ids";
import { AFFILIATE_STATUSES } from "./affiliate-statuses";
import { normalizeTag, TAG_MAX_LENGTH } from "./affiliate-tags";

// Schemas of the merchant admin's affiliate screens (list query, forms, bulk
// actions). Field rules come from the REST API's schemas, so an affiliate
// is valid or not in the same way whichever door it comes through.

export const AFFILIATE_SORTS = [
  "created desc",
  "created asc",
  "name asc",
  "name desc",
  "email asc",
  "email desc",
] as const;
export type AffiliateSort = (typeof AFFILIATE_SORTS)[number];
// Offset pages: 10k affiliates are 400 pages; a larger number is a typo or a probe.
const MAX_PAGE = 100_000;

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const affiliateListQuerySchema = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(100, "Use at most 100 characters").optional()),
  status: z.preprocess(blankToUndefined, z.enum(AFFILIATE_STATUSES).optional()),
  campaign: z.preprocess(blankToUndefined, z.string().regex(ID_PATTERN, "Not a valid id").optional()),
  // Stored tags are lower-case with single spaces (affiliate-tags.ts).
  tag: z.preprocess(blankToUndefined, z.string().max(TAG_MAX_LENGTH).transform(normalizeTag).optional()),
  sort: z.preprocess(blankToUndefined, z.enum(AFFILIATE_SORTS).default("created desc")),
  page: z.preprocess(
    blankToUndefined,
    z.coerce.number().int("Use a whole number").min(1, "Use at least 1").max(MAX_PAGE).default(1),
  ),
});
export type AffiliateListQuery = z.infer<typeof affiliateListQuerySchema>;

export const STATUS_ACTIONS = ["approve", "deny", "deactivate"] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];
// One page of the list at most, with room for a larger page size later.
export const MAX_BULK_IDS = 250;

export const bulkStatusSchema = z.object({
  action: z.enum(STATUS_ACTIONS, { errorMap: () => ({ message: "Choose approve, deny or deactivate" }) }),
  ids: z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value),
    z
      .array(z.string().regex(ID_PATTERN, "Not a valid id"))
      .min(1, "Select at least one affiliate")
      .max(MAX_BULK_IDS, `Select at most ${MAX_BULK_IDS} affiliates`),
  ),
});

const fields = affiliateCreateSchema.shape;
const splitCodes = (value: unknown) => (typeof value === "string" ? value.split(/[\s,;]+/).filter(Boolean) : value);

/**
 * The add and edit forms. Coupon codes are typed as one text (separated by
 * commas, spaces or new lines); the upline is named by its referral code or
 * e-mail, which a merchant knows, rather than an id. A blank upline clears it;
 * a blank referral code generates one (add) or keeps the current one (edit).
 */
export const affiliateFormSchema = z.object({
  email: fields.email,
  first_name: fields.first_name,
  last_name: z.preprocess((value) => value ?? "", fields.last_name),
  status: z.preprocess(blankToUndefined, fields.status),
  campaign_id: z.preprocess(blankToUndefined, fields.campaign_id),
  referral_code: z.preprocess(blankToUndefined, fields.referral_code),
  coupon_codes: z.preprocess(splitCodes, fields.coupon_codes),
  upline: z.preprocess(blankToUndefined, z.string().trim().max(254, "Use at most 254 characters").optional()),
});
export type AffiliateForm = z.infer<typeof affiliateFormSchema>;

/**
 * Field errors of the domain (API field paths) as the form's fields:
 * parent_id is the upline field, coupon_codes.3 is the coupon codes field.
 */
export function formFieldErrors(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const name = path === "parent_id" ? "upline" : path.split(".")[0]!;
    if (!out[name]) out[name] = message;
  }
  return out;
}
