import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { methodName, money, payoutSentence } from "../notification-values.server";

export default defineKind({
  key: "affiliate.payout_sent",
  audience: "affiliate",
  transactional: false,
  variables: {
    ...SAMPLE_SHOP,
    ...SAMPLE_AFFILIATE,
    "payout.amount": "$120.00",
    "payout.method": "PayPal",
    "payout.sentence": "we have sent you $120.00 by PayPal.",
    "payout.discount_code": "",
  },
  on: {
    "payout.paid": {
      values: async ({ event, language, reader, shop }) => {
        const amount = money(language, event.data.amount, event.data.currency);
        // The code is the payment itself, so the e-mail must carry it.
        const payout =
          event.data.method === "discount_code"
            ? await reader.payout.findFirst({
                where: { id: event.data.payoutId, shopId: shop.id },
                select: { discountCode: true },
              })
            : null;
        const discountCode = payout?.discountCode ?? "";
        return {
          "payout.amount": amount,
          "payout.method": methodName(language, event.data.method, "affiliate"),
          "payout.sentence": payoutSentence(language, { method: event.data.method, amount, discountCode }),
          "payout.discount_code": discountCode,
        };
      },
    },
  },
});
