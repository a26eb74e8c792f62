import { z } from "zod";
import { msg } from "../../i18n/messages";
import { cursorParam, searchParam } from "../../lib/url-params";
import { REFERRAL_STATUSES } from "./referral-view";

// The referral history's URL parameters (list and CSV export). As on the
// sales list, a filter that does not parse is dropped: an edited URL still
// shows a list.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const REFERRAL_SORTS = ["created desc", "created asc"] as const;

export const referralHistoryParamsSchema = z.object({
  status: z.enum(REFERRAL_STATUSES).optional().catch(undefined),
  // The advocate's e-mail, the order name, or a friend or reward code.
  q: searchParam(),
  // Calendar days in the shop's time zone, both inclusive.
  since: day,
  until: day,
  sort: z.enum(REFERRAL_SORTS).catch("created desc").default("created desc"),
  after: cursorParam(),
  before: cursorParam(),
});

export type ReferralHistoryParams = z.infer<typeof referralHistoryParamsSchema>;

export const OVERRIDE_NOTE_MAX = 500;

/** Approve a blocked referral or block a pending one, with the merchant's reason. */
export const referralOverrideSchema = z.object({
  intent: z.enum(["approve", "block"]),
  note: z
    .string({ required_error: msg("Referrals:detail.override.noteRequired") })
    .trim()
    .min(1, msg("Referrals:detail.override.noteRequired"))
    .max(OVERRIDE_NOTE_MAX, msg("Global:validation.textMax", { max: OVERRIDE_NOTE_MAX })),
});
