import { merchantRoute } from "~/door/merchant-route.server";
import { affiliateListQuerySchema } from "~/models/affiliates/admin-schemas";
import { exportAffiliatesCsv } from "~/models/affiliates/csv-export.server";
import { publishedSignupFields } from "~/models/portal/signup-fields.server";

// GET /{role}/affiliates/export: the affiliates of the list's filters as CSV.
export const loader = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", query: affiliateListQuerySchema },
  async ({ db, shop, query }) => {
    const date = new Date().toISOString().slice(0, 10);
    const fields = await publishedSignupFields(shop.id);
    return new Response(exportAffiliatesCsv(db, query, fields), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="affiliates-${date}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
