import { z } from "zod";
import { MAX_SUB_ID } from "../tracking/link-tags";

// The sub-id report's URL parameters (admin and account area). Anything that
// does not parse is dropped: an edited URL still shows a report.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

export const subIdReportParamsSchema = z.object({
  // Calendar days in the shop's time zone, both inclusive; default the last 30 days.
  since: day,
  until: day,
  // Keyset cursor: the last sub-id of the previous page (sub-ids are shown in order).
  after: z.string().max(MAX_SUB_ID).optional().catch(undefined),
});

export type SubIdReportParams = z.infer<typeof subIdReportParamsSchema>;
