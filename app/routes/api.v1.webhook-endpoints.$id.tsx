import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { deleteWebhookEndpointApi } from "~/models/api/webhook-endpoints.server";

// DELETE /api/v1/webhook-endpoints/{id}.
const params = idParams("webhook endpoint");

export const loader = /* @__PURE__ */ apiRoute({
  DELETE: endpoint({ params }, ({ db, params }) => deleteWebhookEndpointApi(db, params.id)),
});
export const action = loader;
