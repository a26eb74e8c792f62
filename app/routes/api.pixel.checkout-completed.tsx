import { json } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";
import { pixelReportSchema, recordPixelReport } from "~/models/tracking/pixel-event.server";

// POST /api/pixel/checkout-completed: the Web Pixel's checkout_completed
// report (extensions/affiliate-pixel, see models/tracking/pixel-event).
//
// The pixel runs on the shop's checkout, another origin: any origin may call,
// every answer carries the CORS headers, and the preflight (OPTIONS, which
// Remix hands to the loader) is answered. The body is JSON, sent as
// application/json or text/plain (a "simple" request needs no preflight), at
// most 16 KB. Unreadable JSON is 400, invalid fields 422, an unknown or
// uninstalled shop 404.

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "86400",
};

const usePost = () => json({ error: { code: "bad_request", message: "Use POST." } }, { status: 405 });

export const loader = /* @__PURE__ */ publicRoute({ headers: CORS }, async ({ request }) =>
  request.method === "OPTIONS" ? new Response(null, { status: 204 }) : usePost(),
);

export const action = /* @__PURE__ */ publicRoute(
  { body: pixelReportSchema, bodyType: "json-or-text", maxJsonBytes: 16 * 1024, headers: CORS },
  async ({ request, body }) => {
    if (request.method !== "POST") return usePost();
    await recordPixelReport(body);
    return new Response(null, { status: 204 });
  },
);
