import { apiRoute, created, endpoint } from "~/door/api-route.server";
import { createAffiliate, listAffiliates } from "~/models/api/affiliates.server";
import { affiliateCreateSchema, affiliateListQuerySchema } from "~/models/api/schemas";
import { requireRoomFor } from "~/models/plans/plan-usage.server";

// GET /api/v1/affiliates (paginated), POST /api/v1/affiliates.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: affiliateListQuerySchema }, ({ db, shop, query }) => listAffiliates(db, shop, query)),
  POST: endpoint({ body: affiliateCreateSchema }, async ({ db, shop, body }) => {
    await requireRoomFor(db, shop.pricingPlan, "affiliates");
    const affiliate = await createAffiliate(db, shop, body);
    return created(affiliate, `/api/v1/affiliates/${affiliate.id}`);
  }),
});
export const action = loader;
