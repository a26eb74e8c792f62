import { apiRoute, endpoint } from "~/door/api-route.server";
import { openApiDocument } from "~/models/api/openapi.server";

// GET /api/v1/openapi.json: the OpenAPI 3 document (public, no API key).
export const loader = /* @__PURE__ */ apiRoute({ GET: endpoint({}, async () => openApiDocument()) }, { auth: "none" });
export const action = loader;
