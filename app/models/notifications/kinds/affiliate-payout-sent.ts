import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { methodName, money } from "../notification-values.server";

export default defineKind({
  key: "affiliate.payout_sent",
  audience: "affiliate",
  transactional: false,
  variables: { ...SAMPLE_SHOP, ...SAMPLE_AFFILIATE, "payout.amount": "$120.00", "payout.method": "PayPal" },
  on: {
    "payout.paid": {
      values: ({ event, language }) => ({
        "payout.amount": money(language, event.data.amount, event.data.currency),
        "payout.method": methodName(event.data.method),
      }),
    },
  },
});
