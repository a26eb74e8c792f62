import { z } from "zod";
import { ID_PATTERN } from "../../lib/ids";
import { AFFILIATE_STATUSES } from "./affiliate-statuses";

// An affiliate's fields and their rules: the REST API's bodies and the
// admin's affiliate forms (admin-schemas.ts) validate with these, so an
// affiliate is valid or not in the same way whichever door it comes through.

const id = () => z.string().regex(ID_PATTERN, "Not a valid id");

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
