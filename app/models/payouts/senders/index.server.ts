import type { Db } from "../../../db.server";
import type { PayoutMethod } from "../payout-states";
import { sendDiscountCodes } from "./discount-code.server";
import { sendGiftCards } from "./gift-card.server";
import { sendStoreCredit } from "./store-credit.server";
import { paypalSender } from "./paypal.server";

// The senders of the methods that pay by themselves, by method. Each one is
// handed a batch the payouts.send-batch job picked up after the commit, and
// must be safe to run twice for the same batch (the job repeats after a
// crash): it settles its payouts only through markPayoutPaid /
// markPayoutFailed / recordPayoutProgress (settle-payout.server.ts), which
// emit the events. pay-paypal adds "paypal"; pay-manual adds
// "store_credit" and "discount_code".

export interface SendableBatch {
  id: string;
  shopId: string;
  method: PayoutMethod;
}

export type PayoutSender = (db: Db, batch: SendableBatch) => Promise<void>;

export const PAYOUT_SENDERS: Partial<Record<PayoutMethod, PayoutSender>> = {
  store_credit: sendStoreCredit,
  discount_code: sendDiscountCodes,
  gift_card: sendGiftCards,
  paypal: paypalSender,
};
