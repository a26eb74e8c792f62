import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { recordId } from "~/door/params";
import { assetStorage, IMAGE_TYPES } from "~/models/storage/asset-storage.server";

// GET /portal-assets/{shopId}/{file}: images merchants uploaded for their
// portal pages (public, like any image on a web page; names are random).
// A path that names no stored image is 404; the storage refuses names it
// could not have written, so nothing outside the uploads is ever read.
const params = z.object({ shopId: recordId("image"), file: z.string().min(1).max(200) });

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export const loader = /* @__PURE__ */ publicRoute({ scheme: "file", params }, async ({ params }) => {
  const type = IMAGE_TYPES[(params.file.split(".").pop() ?? "").toLowerCase()];
  const bytes = type ? await (await assetStorage()).get(params.shopId, params.file) : null;
  if (!bytes) return notFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": type!,
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
});
