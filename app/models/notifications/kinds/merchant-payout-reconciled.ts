import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues, methodName, money } from "../notification-values.server";

/** PayPal paid a payout the app had counted failed or cancelled (reconcile-payout.server.ts). */
export default defineKind({
  key: "merchant.payout_reconciled",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "payout.amount": "$120.00",
    "payout.method": "PayPal",
    "payout.overpaid": "$120.00",
    admin_url: "https://app.example/admin/payouts/p_1",
  },
  on: {
    "payout.paid": {
      values: ({ event, shop, affiliate, language }) => {
        const p = event.data;
        if (!p.previousStatus) return null;
        return {
          ...affiliateValues(shop, affiliate),
          "payout.amount": money(language, p.amount, p.currency),
          "payout.method": methodName(language, p.method, "merchant"),
          "payout.overpaid": money(language, p.overpaid ?? 0, p.currency),
          admin_url: adminUrl(`/payouts/${p.payoutId}`),
        };
      },
    },
  },
});
