import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { msg } from "~/i18n/messages";
import { AppError } from "~/lib/errors";
import { necCsv } from "~/models/tax-forms/nec-1099.server";

// GET /{role}/payouts/tax-1099.csv?year=2026: the year's 1099-NEC payees for
// an e-filing service. It carries the payees' TINs in full: the shop's admin only.
const query = z.object({ year: z.coerce.number().int().min(2000).max(2100) });

export const loader = /* @__PURE__ */ merchantRoute({ area: "payouts", query }, async ({ db, user, query }) => {
  if (user.role !== "admin") throw new AppError("forbidden", msg("Tax:nec.adminOnly"));
  const text = await necCsv(db, query.year);
  return new Response(text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="1099-nec-${query.year}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
