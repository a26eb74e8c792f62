import { defineKind, SAMPLE_AFFILIATE, SAMPLE_SHOP } from "../kind";
import { formatGiftCardCode } from "../../payouts/gift-card-code";
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
    "payout.gift_card_code": "",
  },
  on: {
    "payout.paid": {
      values: async ({ event, language, reader, shop }) => {
        const amount = money(language, event.data.amount, event.data.currency);
        // The code (a discount code's, a gift card's) is the payment itself, so the e-mail must carry it.
        const payout =
          event.data.method === "discount_code" || event.data.method === "gift_card"
            ? await reader.payout.findFirst({
                where: { id: event.data.payoutId, shopId: shop.id },
                select: { discountCode: true, giftCardCode: true },
              })
            : null;
        const discountCode = payout?.discountCode ?? "";
        const giftCardCode = payout?.giftCardCode ? formatGiftCardCode(payout.giftCardCode) : "";
        return {
          "payout.amount": amount,
          "payout.method": methodName(language, event.data.method, "affiliate"),
          "payout.sentence": payoutSentence(language, {
            method: event.data.method,
            amount,
            discountCode: discountCode || giftCardCode,
          }),
          "payout.discount_code": discountCode,
          "payout.gift_card_code": giftCardCode,
        };
      },
    },
  },
});
