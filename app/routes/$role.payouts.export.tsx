import { merchantRoute } from "~/door/merchant-route.server";
import { csvExportSchema, csvFileQuerySchema } from "~/models/payouts/csv/csv-schemas";
import { payoutBatchCsv, startCsvPayment } from "~/models/payouts/csv/export-payouts-csv.server";

// GET /{role}/payouts/export?batch=…&format=paypal|wise|plain: the file of a
// CSV payment (again, in any format). POST {ids, format}: the selected
// pending payouts become a CSV payment (processing), answered with its id.

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "payouts", query: csvFileQuerySchema },
  async ({ db, query }) => {
    const file = await payoutBatchCsv(db, query.batch, query.format, new Date().toISOString().slice(0, 10));
    return new Response(file.text, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", body: csvExportSchema },
  async ({ db, body, user }) => ({
    format: body.format,
    count: body.ids.length,
    ...(await startCsvPayment(db, { payoutIds: body.ids, format: body.format, createdBy: user.id ?? user.email })),
  }),
);
