import { affiliateRoute } from "~/door/affiliate-route.server";
import { msg } from "~/i18n/messages";
import { AppError } from "~/lib/errors";
import { taxFormPdf } from "~/models/tax-forms/tax-form-pdf.server";
import { currentTaxFormSigned } from "~/models/tax-forms/tax-form-store.server";

// GET /account/payouts/tax-form/pdf: the affiliate's copy of the form they
// signed (TIN masked), made on the server.
export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ db, affiliate, shop }) => {
  const signed = await currentTaxFormSigned(db, affiliate.id);
  if (!signed) throw new AppError("not_found", msg("Account.TaxForm:errors.noForm"));
  const bytes = await taxFormPdf(signed.form, { shopName: shop.name, ...signed });
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${signed.form.kind}-${signed.form.signedAt.slice(0, 10)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
});
