import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { methodName, money } from "../notification-values.server";

export default defineKind({
  key: "affiliate.payout_failed",
  audience: "affiliate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "payout.amount": "$120.00",
    "payout.method": "PayPal",
    "payout.reason": "The receiver's account is not confirmed.",
  },
  on: {
    "payout.failed": {
      values: ({ event, language }) => ({
        "payout.amount": money(language, event.data.amount, event.data.currency),
        "payout.method": methodName(language, event.data.method, "affiliate"),
        "payout.reason": event.data.reason,
      }),
    },
  },
});
