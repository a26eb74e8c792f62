import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { createCreativeFromUpload } from "~/models/creatives/merchant-creatives.server";
import { receiveUpload } from "~/models/creatives/receive-upload.server";

// POST /{role}/creatives/upload?name=banner.png: the file itself is the body
// (sent by the page with progress), streamed to a temporary file under the
// size limit, checked by its content, then stored with its thumbnails as a
// new creative. Answers {id}.
const query = z.object({ name: z.string().trim().min(1).max(200) });

export const action = /* @__PURE__ */ merchantRoute({ area: "creatives", query }, async ({ db, query, request }) => {
  const declared = request.headers.get("content-length");
  const upload = await receiveUpload(request.body, query.name, declared ? Number(declared) : null);
  return createCreativeFromUpload(db, upload);
});
