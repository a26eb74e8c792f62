import { z } from "zod";
import { cursorParam, searchParam, selectedIds } from "../../lib/url-params";
import { msg } from "../../i18n/messages";
import { ID_PATTERN } from "../../lib/ids";
import { PAYOUT_METHODS } from "./payout-states";

// The payouts list's URL parameters and the forms of the payout screens: one
// schema per form, used by the page and the server. Filters that do not
// parse are dropped, so an edited URL still shows a list.

export const PAYOUT_TABS = ["pending", "processing", "paid", "failed"] as const;
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const payoutListParamsSchema = z.object({
  status: z.enum(PAYOUT_TABS).optional().catch(undefined),
  // Referral code, e-mail or name of an affiliate.
  affiliate: searchParam(),
  affiliate_id: z.string().regex(ID_PATTERN).optional().catch(undefined),
  since: day,
  until: day,
  after: cursorParam(),
  before: cursorParam(),
});
export type PayoutListParams = z.infer<typeof payoutListParamsSchema>;

export const PAYOUT_BULK_LIMIT = 500;

/** The Pay dialog's methods: "choice" pays each affiliate by their own method (the shop's default where they have none). */
export const PAY_METHODS = ["choice", ...PAYOUT_METHODS] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

/** The list's Pay dialog: the selected pending payouts and the method of the batch. */
export const payBatchSchema = z.object({
  intent: z.literal("pay"),
  ids: selectedIds("payout", PAYOUT_BULK_LIMIT),
  method: z.enum(PAY_METHODS, { errorMap: () => ({ message: msg("Payouts:errors.method") }) }),
});

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, msg("Global:validation.textMax", { max }))
    .optional()
    .transform((v) => v || undefined);

/** The payout screen's actions. */
export const payoutActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-paid"),
    reference: optionalText(200),
    paidOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, msg("Payouts:errors.date"))
      .optional()
      .or(z.literal("").transform(() => undefined)),
    note: optionalText(1000),
  }),
  z.object({
    intent: z.literal("mark-failed"),
    reason: z
      .string()
      .trim()
      .min(1, msg("Payouts:errors.reason"))
      .max(500, msg("Global:validation.textMax", { max: 500 })),
  }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("retry") }),
  // A PayPal batch stuck in "sending": its send job again, same ids (send-batch-again.server.ts).
  z.object({ intent: z.literal("send-again") }),
  // Reads only (the affiliate's full bank details, to pay by hand): a POST so they are never in a page's HTML or a cache.
  z.object({ intent: z.literal("show-details") }),
]);
export type PayoutAction = z.infer<typeof payoutActionSchema>;
