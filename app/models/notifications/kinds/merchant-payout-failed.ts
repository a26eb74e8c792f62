import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { adminUrl, affiliateValues, methodName, money } from "../notification-values.server";

export default defineKind({
  key: "merchant.payout_failed",
  audience: "merchant",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "payout.amount": "$120.00",
    "payout.method": "PayPal",
    "payout.reason": "The receiver's account is not confirmed.",
    admin_url: "https://app.example/admin/payouts",
  },
  on: {
    "payout.failed": {
      values: ({ event, shop, affiliate, language }) => ({
        ...affiliateValues(shop, affiliate),
        "payout.amount": money(language, event.data.amount, event.data.currency),
        "payout.method": methodName(language, event.data.method, "merchant"),
        "payout.reason": event.data.reason,
        admin_url: adminUrl("/payouts"),
      }),
    },
  },
});
