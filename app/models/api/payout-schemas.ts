import { z } from "zod";
import { PAYOUT_METHODS, PAYOUT_STATUSES } from "../payouts/payout-states";
import { ID_PATTERN } from "../../lib/ids";
import { listQuerySchema } from "./schemas";

// The payouts part of /api/v1 (issue 11): query, payloads and the payout as
// the API shows it. English messages: the REST API is not translated.

const id = () => z.string().regex(ID_PATTERN, "Not a valid id");

export const payoutListQuerySchema = listQuerySchema.extend({
  status: z.enum(PAYOUT_STATUSES).optional(),
  affiliate_id: id().optional(),
});
export type PayoutListQuery = z.infer<typeof payoutListQuerySchema>;

export const payoutCreateSchema = z
  .object({
    affiliate_ids: z
      .array(id())
      .min(1, "Give at least one affiliate id, or leave affiliate_ids out for every eligible affiliate")
      .max(10_000)
      .optional()
      .describe("Pay these affiliates' pending payouts; leave out to pay every eligible affiliate"),
    method: z
      .enum(PAYOUT_METHODS, { errorMap: () => ({ message: `Use one of ${PAYOUT_METHODS.join(", ")}` }) })
      .optional()
      .describe(
        "Pay every payout by this method; leave out to pay each affiliate by the method they chose (the shop's default where they have none), one batch per method",
      ),
  })
  .strict();

export const payoutMarkPaidSchema = z
  .object({
    reference: z.string().trim().max(200, "Use at most 200 characters").optional(),
    paid_at: z.string().datetime({ offset: true }).optional().describe("When it was paid (default: now)"),
    note: z.string().trim().max(1000, "Use at most 1000 characters").optional(),
  })
  .strict();

export const payoutHoldSchema = z.object({
  reason: z.string().describe("Why it waits, in English"),
  reason_key: z
    .string()
    .describe(
      "The reason's message key: Tax:hold.tax_form_required(_above), Payouts:rateHold.rate_missing or rate_stale",
    ),
  reason_values: z.record(z.unknown()).describe("The values the key is written with (currency, days)"),
});

export const payoutSchema = z.object({
  id: z.string(),
  affiliate_id: z.string(),
  amount: z.number().int().describe("Minor units of the currency"),
  currency: z.string().describe("The shop's currency: commissions and this amount are the shop's money"),
  payout_currency: z
    .string()
    .nullable()
    .describe("The currency the affiliate is paid in, when converted (ISO 4217); null when paid in `currency`"),
  payout_amount: z
    .number()
    .int()
    .nullable()
    .describe("What the affiliate is paid, in minor units of payout_currency; null when not converted"),
  exchange_rate: z
    .string()
    .nullable()
    .describe(
      "Units of payout_currency per one unit of currency, as decimal text (kept exact); null when not converted",
    ),
  rate_source: z.string().nullable().describe("Who supplied the rate (merchant: entered in Settings › Payment)"),
  rate_at: z.string().nullable().describe("When the rate was entered"),
  status: z.enum(PAYOUT_STATUSES),
  holds: z
    .array(payoutHoldSchema)
    .describe(
      "Why a pending payout waits (the affiliate's tax form, or a missing or old exchange rate); empty when it may be paid",
    ),
  method: z.enum(PAYOUT_METHODS),
  batch_id: z.string().nullable(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  failure_reason: z.string().nullable(),
  paypal_item_id: z.string().nullable(),
  paypal_item_status: z.string().nullable(),
  line_count: z.number().int(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  paid_at: z.string().nullable(),
});

export const payoutBatchResultSchema = z.object({
  batch_id: z.string().nullable().describe("The first batch; null when no affiliate had a payout to pay"),
  batch_ids: z.array(z.string()).describe("Every batch made: one per method when each affiliate is paid by their own"),
  payouts: z.array(payoutSchema),
});
