import { z } from "zod";
import { CHECK_OUTCOMES, REFERRAL_SOURCES, REFERRAL_STATUSES, REWARD_KINDS } from "./referral-view";

// A referral as the public sees it: GET /api/v1/referrals/{id} and the
// `referral` object of referral.* webhooks, one shape (snake_case, like the
// whole public API), so a receiver parses it the same way polled or called.

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
