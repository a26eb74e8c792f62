import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { affiliateImportStatus } from "~/models/affiliates/csv-import.server";

// An affiliates CSV import's progress and report, polled by the import dialog. Reads only.
const params = idParams("import");

export const loader = /* @__PURE__ */ merchantRoute({ area: "affiliates", params }, async ({ db, params }) => ({
  import: await affiliateImportStatus(db, params.id),
}));
