import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { paidImportStatus } from "~/models/payouts/csv/paid-import-job.server";

// A paid-payouts CSV import's progress and report, polled by the import dialog. Reads only.
const params = idParams("import");

export const loader = /* @__PURE__ */ merchantRoute({ area: "payouts", params }, async ({ db, params }) => ({
  import: await paidImportStatus(db, params.id),
}));
