import { z } from "zod";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { AppError } from "~/lib/errors";
import { buildLink, linkBuilderQuery, qrCode } from "~/models/affiliate-account/link-builder.server";
import { getPromoteLink } from "~/models/settings/promote-link.server";

// GET /account/links/qr?page=|product=&sub_id=&format=svg|png[&download=1]:
// the QR code of a link-builder link, built again from the same form values
// (the store-only check runs here too; nothing a visitor typed is encoded
// unchecked). The code encodes the link with via=qr, so its scans are
// counted apart.
const query = linkBuilderQuery.extend({
  format: z.enum(["svg", "png"]).catch("svg"),
  download: z.literal("1").optional().catch(undefined),
});

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, appUrl, query }) => {
  const promote = await getPromoteLink(db);
  const built = await buildLink(db, { shop, code: affiliate.referralCode, appUrl, promote }, query);
  if (!built.qrLink) throw new AppError("not_found", "There is no link to make a QR code of.");
  const body = await qrCode(built.qrLink, query.format);
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    headers: {
      "Content-Type": query.format === "svg" ? "image/svg+xml; charset=utf-8" : "image/png",
      ...(query.download ? { "Content-Disposition": `attachment; filename="qr-code.${query.format}"` } : {}),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
