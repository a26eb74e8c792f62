import { Readable } from "node:stream";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { recordId } from "~/door/params";
import { IMAGE_TYPES } from "~/models/storage/asset-storage.server";
import { creativeStorage } from "~/models/creatives/creative-storage.server";

// GET /creative-files/{shopId}/{file}: creative images and their thumbnails,
// public because affiliates embed them on their own pages (names are
// random). Only images: a creative's PDF or zip is given out through the
// affiliate's counted download, never here.
const params = z.object({ shopId: recordId("image"), file: z.string().min(1).max(200) });

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export const loader = /* @__PURE__ */ publicRoute({ scheme: "file", params }, async ({ params }) => {
  const type = IMAGE_TYPES[(params.file.split(".").pop() ?? "").toLowerCase()];
  const opened = type ? await (await creativeStorage()).open(params.shopId, params.file) : null;
  if (!opened) return notFound();
  return new Response(Readable.toWeb(opened.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": type!,
      "Content-Length": String(opened.size),
      // Stored names never change content (a new upload is a new name).
      "Cache-Control": "public, max-age=604800, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      // Embedded on affiliates' sites.
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
});
