import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { getAffiliate, updateAffiliate } from "~/models/api/affiliates.server";
import { affiliateUpdateSchema } from "~/models/api/schemas";
import { requireEditable } from "~/models/plans/plan-usage.server";

// GET /api/v1/affiliates/{id}, PATCH /api/v1/affiliates/{id}.
const params = idParams("affiliate");

export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params }, ({ db, shop, params }) => getAffiliate(db, shop, params.id)),
  PATCH: endpoint({ params, body: affiliateUpdateSchema }, async ({ db, shop, params, body }) => {
    await requireEditable(db, shop.pricingPlan, "affiliates", [params.id]);
    return updateAffiliate(db, shop, params.id, body);
  }),
});
export const action = loader;
