import type { AffiliateMethod, PaymentSettings } from "./payment-settings";
import type { PayoutMethod } from "./payout-states";

// Which method pays an affiliate when the shop pays "each by their own
// method" (auto-pay, the API): the affiliate's own choice when the shop offers
// it and it can work (a PayPal e-mail for PayPal), else the shop's default
// (Settings › Payment). Store credit needs the affiliate to shop in the store:
// the sender finds their customer record by the link or their e-mail, and
// fails the payout with a reason the merchant can act on when there is none.

export interface PayoutMethodAffiliate {
  /** What the affiliate chose on /account/payouts, if anything. */
  payoutMethod?: AffiliateMethod | null;
  paypalEmail: string | null;
}

const FROM_CHOICE: Record<AffiliateMethod, PayoutMethod> = {
  paypal: "paypal",
  store_credit: "store_credit",
  // Bank or other details the merchant defines: paid by hand (or by a CSV file).
  bank: "manual",
};

export function payoutMethodFor(
  affiliate: PayoutMethodAffiliate,
  settings: Pick<PaymentSettings, "affiliateMethods" | "defaultMethod">,
): PayoutMethod {
  const choice = affiliate.payoutMethod;
  if (choice && settings.affiliateMethods.includes(choice)) {
    if (choice !== "paypal" || affiliate.paypalEmail) return FROM_CHOICE[choice];
  }
  if (settings.defaultMethod === "paypal" && !affiliate.paypalEmail) return "manual";
  return settings.defaultMethod;
}
