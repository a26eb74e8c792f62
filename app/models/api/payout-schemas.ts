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

export const payoutSchema = z.object({
  id: z.string(),
  affiliate_id: z.string(),
  amount: z.number().int().describe("Minor units of the currency"),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
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
