import { z } from "zod";
import { cursorParam, selectedIds, searchParam } from "../../lib/url-params";
import { ID_PATTERN } from "../../lib/ids";
import { ATTRIBUTION_SOURCES, SALE_STATUSES } from "./sale-statuses";

// The sales list's URL parameters. Filters that do not parse are dropped
// (an edited URL still shows a list), and the page says which one was.
const cursor = cursorParam();
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const saleListParamsSchema = z.object({
  status: z.enum(SALE_STATUSES).optional().catch(undefined),
  source: z.enum(ATTRIBUTION_SOURCES).optional().catch(undefined),
  // Referral code, e-mail or name of an affiliate.
  affiliate: searchParam(),
  affiliate_id: z.string().regex(ID_PATTERN).optional().catch(undefined),
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
  ids: selectedIds("sale", SALE_BULK_LIMIT),
});
