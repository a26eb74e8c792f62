import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadOrThrow, parseQuery } from "~/lib/http.server";
import { affiliateListQuerySchema } from "~/models/affiliates/admin-schemas";
import { exportAffiliatesCsv } from "~/models/affiliates/csv-export.server";
import { requireMerchant } from "~/models/auth/require-merchant.server";

// GET /{role}/affiliates/export: the affiliates of the list's filters as CSV.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "affiliates" });
  return loadOrThrow(async () => {
    const query = parseQuery(request, affiliateListQuerySchema);
    const date = new Date().toISOString().slice(0, 10);
    return new Response(exportAffiliatesCsv(ctx.shop.id, query), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="affiliates-${date}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
