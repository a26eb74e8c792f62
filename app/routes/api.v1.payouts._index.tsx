import { apiRoute, created, endpoint } from "~/door/api-route.server";
import { payoutCreateSchema, payoutListQuerySchema } from "~/models/api/payout-schemas";
import { createAndSendPayouts, listPayouts } from "~/models/api/payouts.server";

// GET /api/v1/payouts?status=&affiliate_id= (paginated);
// POST /api/v1/payouts {affiliate_ids?, method}: create and send pending payouts.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: payoutListQuerySchema }, ({ db, query }) => listPayouts(db, query)),
  POST: endpoint({ body: payoutCreateSchema }, async ({ db, body }) => {
    const result = await createAndSendPayouts(db, body);
    return created(result, result.batch_id ? `/api/v1/payouts?status=processing` : "/api/v1/payouts");
  }),
});
export const action = loader;
