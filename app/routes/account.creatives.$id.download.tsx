import { Readable } from "node:stream";
import { z } from "zod";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { recordId } from "~/door/params";
import { downloadCreative } from "~/models/creatives/affiliate-creatives.server";

// GET /account/creatives/{id}/download: the creative's file as an
// attachment, counted once a day for this affiliate. A creative of another
// shop or another campaign is 404.
const params = z.object({ id: recordId("creative") });

/** A file name for Content-Disposition: ASCII fallback plus the UTF-8 name (RFC 6266). */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const loader = /* @__PURE__ */ affiliateRoute(
  { params, writeOnRead: "download count" },
  async ({ db, affiliate, params }) => {
    const file = await downloadCreative(db, affiliate, params.id);
    return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
      headers: {
        "Content-Type": file.type,
        "Content-Length": String(file.size),
        "Content-Disposition": disposition(file.name),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
);
