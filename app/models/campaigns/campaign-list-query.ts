import { z } from "zod";
import { cursorParam, selectedIds, searchParam } from "../../lib/url-params";
import { CAMPAIGN_STATUSES } from "./campaign-options";

// The campaign list's URL parameters (?status=&q=&after=&before=). Anything
// unknown or malformed is dropped rather than refused: a list URL that was
// edited by hand still shows the list.
const cursor = cursorParam();

export const campaignListParamsSchema = z.object({
  status: z.enum(CAMPAIGN_STATUSES).optional().catch(undefined),
  q: searchParam(),
  after: cursor,
  before: cursor,
});

export const CAMPAIGN_BULK_LIMIT = 250;

/** The list's bulk action: put the selected campaigns in one state. */
export const campaignBulkSchema = z.object({
  intent: z.literal("set_status"),
  status: z.enum(CAMPAIGN_STATUSES),
  ids: selectedIds("campaign", CAMPAIGN_BULK_LIMIT),
});
