import { pixelPreflight, pixelRoute } from "~/door/public-route.server";
import { pixelReportSchema } from "~/models/tracking/pixel-event.server";
import { acceptPixelReport } from "~/models/attribution/pixel-signal.server";

// POST /api/pixel/checkout-completed: the Web Pixel's checkout_completed
// report (extensions/affiliate-pixel, see models/tracking/pixel-event).
//
// The pixel runs on the shop's checkout, another origin: pixelRoute's door
// lets any origin call, puts the CORS headers on every answer and answers
// the preflight (OPTIONS, which Remix hands to the loader). The body is JSON, sent as
// application/json or text/plain (a "simple" request needs no preflight), at
// most 16 KB. Unreadable JSON is 400, invalid fields 422, an unknown or
// uninstalled shop 404.

export const loader = /* @__PURE__ */ pixelPreflight();

export const action = /* @__PURE__ */ pixelRoute(
  { body: pixelReportSchema, bodyType: "json-or-text", maxJsonBytes: 16 * 1024 },
  async ({ body }) => {
    // Stored; an order already recorded for the checkout gets the pixel's signal (ADR 056).
    await acceptPixelReport(body);
    return new Response(null, { status: 204 });
  },
);
