import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { payoutMarkPaidSchema } from "~/models/api/payout-schemas";
import { markPaidByApi } from "~/models/api/payouts.server";

// POST /api/v1/payouts/{id}/mark-paid {reference?, paid_at?, note?}
const params = idParams("payout");
export const loader = /* @__PURE__ */ apiRoute({
  POST: endpoint({ params, body: payoutMarkPaidSchema }, ({ db, params, body }) => markPaidByApi(db, params.id, body)),
});
export const action = loader;
