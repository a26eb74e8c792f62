import { z } from "zod";
import { CHECK_OUTCOMES, REFERRAL_SOURCES, REFERRAL_STATUSES, REWARD_KINDS } from "../referrals/referral-view";
import { listQuerySchema } from "./schemas";

// The referrals part of /api/v1 (issue 13): the list's query and a referral
// as the API shows it. English messages: the REST API is not translated.

const queryDate = z
  .string()
  .refine(
    (value) =>
      z.string().date().safeParse(value).success || z.string().datetime({ offset: true }).safeParse(value).success,
    {
      message: "Use an ISO 8601 date (2025-01-31) or date-time with offset (2025-01-31T12:00:00Z)",
    },
  )
  .transform((value) => new Date(value));

export const referralListQuerySchema = listQuerySchema.extend({
  status: z.enum(REFERRAL_STATUSES).optional(),
  advocate_email: z
    .string()
    .trim()
    .email("Use an e-mail address")
    .max(254, "Use at most 254 characters")
    .optional()
    .describe("The advocate's e-mail (compared as the program does: case, +tags and Gmail dots ignored)"),
  since: queryDate.optional().describe("created_at from (inclusive; ISO 8601 date or date-time)"),
  until: queryDate.optional().describe("created_at before (exclusive; ISO 8601 date or date-time)"),
});
export type ReferralListQuery = z.infer<typeof referralListQuerySchema>;

const isoOrNull = () => z.string().nullable().describe("ISO 8601 date-time (UTC), or null");

export const referralSchema = z.object({
  id: z.string(),
  status: z.enum(REFERRAL_STATUSES),
  advocate: z.object({ id: z.string(), email: z.string() }),
  friend_email: z.string().describe('The friend\'s e-mail, masked as in the admin ("an***@example.com"); "" when none'),
  order_gid: z.string().describe("gid://shopify/Order/…"),
  order_name: z.string(),
  order_total: z.number().int().describe("Minor units of currency"),
  currency: z.string(),
  source: z.enum(REFERRAL_SOURCES).describe("code: the friend used a code; link: the friend came through a share link"),
  reason: z.string().describe("Why the order counts as this advocate's referral, in words"),
  friend_code: z.string().nullable(),
  checks: z
    .array(
      z.object({
        rule: z.string(),
        outcome: z.enum(CHECK_OUTCOMES),
        detail: z.string().describe("Translation key of what the check found"),
        values: z.record(z.union([z.string(), z.number()])).optional(),
      }),
    )
    .describe("The fraud checks that ran and what each found"),
  blocked_rule: z.string().nullable().describe("The first rule that blocked it"),
  override: z
    .object({ note: z.string(), by: z.string(), at: z.string() })
    .nullable()
    .describe("The merchant's last override (approve or block with a note)"),
  reward: z.object({
    kind: z.enum(REWARD_KINDS),
    amount: z.number().int().nullable().describe("Minor units of currency; null for a percentage code"),
    currency: z.string().nullable(),
    percent_bps: z.number().int().nullable().describe("A percentage code's basis points (1000 = 10 %); else null"),
    code: z.string().nullable(),
    payout_id: z.string().nullable(),
    rewarded_at: isoOrNull(),
  }),
  hold_until: z.string().describe("The reward is given after this instant if the order is not refunded or cancelled"),
  cancelled_at: isoOrNull(),
  placed_at: z.string(),
  created_at: z.string(),
});
export type ReferralOut = z.infer<typeof referralSchema>;
