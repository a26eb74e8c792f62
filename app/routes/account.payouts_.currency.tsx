import { redirect } from "@remix-run/node";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { saveAffiliatePayoutCurrency } from "~/models/payouts/affiliate-payout-choice.server";
import { payoutCurrencyFormSchema } from "~/models/payouts/payout-currency-choice";

// /account/payouts/currency: the currency the affiliate is paid in, among
// those the shop allows (ADR 052). The form lives on /account/payouts.
export const action = /* @__PURE__ */ affiliateRoute(
  { body: payoutCurrencyFormSchema },
  async ({ db, affiliate, body }) => {
    await saveAffiliatePayoutCurrency(db, db.$shopId, affiliate.id, body);
    return redirect("/account/payouts?saved=1");
  },
);
