import { z } from "zod";
import { apiRoute, endpoint } from "~/door/api-route.server";
import { recordId } from "~/door/params";
import { decideSale } from "~/models/api/sales.server";

// POST /api/v1/sales/{id}/approve and /deny; any other last segment is 404.
const params = z.object({ decision: z.enum(["approve", "deny"]), id: recordId("sale") });

export const loader = /* @__PURE__ */ apiRoute(
  { POST: endpoint({ params }, ({ db, params }) => decideSale(db, params.id, params.decision)) },
  { path: z.object({ decision: params.shape.decision }) },
);
export const action = loader;
