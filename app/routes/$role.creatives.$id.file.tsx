import { Readable } from "node:stream";
import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { recordId } from "~/door/params";
import { creativeFileForMerchant } from "~/models/creatives/merchant-creatives.server";

// GET /{role}/creatives/{id}/file: the merchant opens the stored file (a
// PDF or zip is not public); not counted, as it is not an affiliate's use.
const params = z.object({ id: recordId("creative") });

export const loader = /* @__PURE__ */ merchantRoute({ area: "creatives", params }, async ({ db, params }) => {
  const file = await creativeFileForMerchant(db, params.id);
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": file.type,
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
