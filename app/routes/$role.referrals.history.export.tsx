import { merchantRoute } from "~/door/merchant-route.server";
import { referralHistoryParamsSchema } from "~/models/referrals/referral-history-query";
import { exportReferralsCsv } from "~/models/referrals/referral-history-csv.server";

// GET /{role}/referrals/history/export: the referrals of the list's filters as CSV (streamed).
export const loader = /* @__PURE__ */ merchantRoute(
  { area: "referrals", feature: "referAFriend", query: referralHistoryParamsSchema },
  async ({ db, shop, query }) => {
    const date = new Date().toISOString().slice(0, 10);
    return new Response(exportReferralsCsv(db, shop.timezone, query), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="referrals-${date}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
