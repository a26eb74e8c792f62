import { json } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import { paidImportSchema } from "~/models/payouts/csv/csv-schemas";
import { startPaidImport } from "~/models/payouts/csv/paid-import-job.server";

// POST /{role}/payouts/import (multipart, "file"): stores the file's rows and
// queues the job that marks them paid; the dialog then follows
// /{role}/payouts/imports/{id}. 422 with the problems of a file it cannot read.
export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", body: paidImportSchema },
  async ({ db, body, user }) => {
    const result = await startPaidImport(db, await body.file.text(), user.id ?? user.email);
    return json(result, { status: result.ok ? 202 : 422 });
  },
);
