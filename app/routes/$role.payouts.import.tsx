import { json } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import { paidImportSchema } from "~/models/payouts/csv/csv-schemas";
import { importPaidPayoutsCsv } from "~/models/payouts/csv/import-paid-csv.server";

// POST /{role}/payouts/import (multipart, "file"): marks the file's payouts
// paid with their references, all or none; 422 with every row's problems.
export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", body: paidImportSchema },
  async ({ db, body, user }) => {
    const result = await importPaidPayoutsCsv(db, await body.file.text(), user.id ?? user.email);
    return json(result, { status: result.ok ? 200 : 422 });
  },
);
