import type { LoaderFunctionArgs } from "@remix-run/node";
import { assetStorage, IMAGE_TYPES } from "~/models/portal/asset-storage.server";

// GET /portal-assets/{shopId}/{file}: images merchants uploaded for their
// portal pages (public, like any image on a web page; names are random).
export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  const type = IMAGE_TYPES[(file.split(".").pop() ?? "").toLowerCase()];
  const bytes = type ? await assetStorage().get(params.shopId ?? "", file) : null;
  if (!bytes)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": type!,
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
