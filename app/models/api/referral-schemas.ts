import { z } from "zod";
import { REFERRAL_STATUSES } from "../referrals/referral-view";
import { listQuerySchema } from "./schemas";

// The referrals part of /api/v1 (issue 13): the list's query. A referral as
// the API shows it is the referrals domain's (referrals/referral-out.server.ts),
// shared with the referral.* webhooks. English messages: the REST API is not
// translated.

export { referralSchema, type ReferralOut } from "../referrals/referral-schema";

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
