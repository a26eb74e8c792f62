import { apiNotFound } from "~/door/api-route.server";

// Any other path under /api/v1 (any method): 404 JSON, never an HTML page.
export const loader = /* @__PURE__ */ apiNotFound();
export const action = loader;
