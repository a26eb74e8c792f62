import { merchantRoute } from "~/door/merchant-route.server";
import { saleListParamsSchema } from "~/models/sales/sale-list-query";
import { exportSalesCsv } from "~/models/sales/sales-csv.server";

// GET /{role}/sales/export: the sales of the list's filters as CSV (streamed),
// with the crediting link's sub_id, sub1..sub5 and utm_* columns.
export const loader = /* @__PURE__ */ merchantRoute(
  { area: "sales", query: saleListParamsSchema },
  async ({ db, shop, query }) => {
    const date = new Date().toISOString().slice(0, 10);
    return new Response(exportSalesCsv(db, shop.timezone, query), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="sales-${date}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
