import { z } from "zod";
import { ATTRIBUTION_SOURCES, SALE_STATUSES } from "../api/schemas";

// The sales list's URL parameters. Filters that do not parse are dropped
// (an edited URL still shows a list), and the page says which one was.
const cursor = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/)
  .optional()
  .catch(undefined);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const saleListParamsSchema = z.object({
  status: z.enum(SALE_STATUSES).optional().catch(undefined),
  source: z.enum(ATTRIBUTION_SOURCES).optional().catch(undefined),
  // Referral code, e-mail or name of an affiliate.
  affiliate: z
    .string()
    .trim()
    .max(100)
    .optional()
    .catch(undefined)
    .transform((v) => v || undefined),
  affiliate_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .catch(undefined),
  // Calendar days in the shop's time zone, both inclusive.
  since: day,
  until: day,
  after: cursor,
  before: cursor,
});

export type SaleListParams = z.infer<typeof saleListParamsSchema>;

export const SALE_BULK_LIMIT = 250;

/** Approve or deny one sale (detail page) or many (list page). */
export const saleDecisionSchema = z.object({
  intent: z.enum(["approve", "deny"]),
  ids: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a valid id"))
    .min(1, "Select at least one sale")
    .max(SALE_BULK_LIMIT, `Select at most ${SALE_BULK_LIMIT} sales at a time`),
});
