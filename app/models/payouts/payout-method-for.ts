import type { AffiliateMethod, PaymentSettings } from "./payment-settings";
import type { PayoutMethod } from "./payout-states";

// Which method pays an affiliate: the affiliate's own choice
// (/account/payouts) when the shop still offers it and it can work (a PayPal
// e-mail for PayPal), else the shop's default (Settings › Payment). Every
// payout that is made asks this (the Pay dialog's "each affiliate's
// choice", the REST API, auto-pay), and the screens show `source` so a
// fallback to the default is never silent. Store credit needs the affiliate
// to shop in the store: the sender finds their customer record by the link
// or their e-mail, and fails the payout with a reason the merchant can act
// on when there is none.

export interface PayoutMethodAffiliate {
  /** What the affiliate chose on /account/payouts, if anything. */
  payoutMethod?: string | null;
  paypalEmail: string | null;
}

/**
 * Where the method came from: the affiliate's choice; the shop's default
 * because there is none, because the shop no longer offers the choice, or
 * because the choice cannot work (PayPal without an address).
 */
export type MethodSource = "choice" | "default" | "not_offered" | "incomplete";

const FROM_CHOICE: Record<AffiliateMethod, PayoutMethod> = {
  paypal: "paypal",
  store_credit: "store_credit",
  // A Shopify gift card whose code is e-mailed to them.
  gift_card: "gift_card",
  // Bank or other details the merchant defines: paid by hand (or by a CSV file).
  bank: "manual",
};

const isAffiliateMethod = (v: string): v is AffiliateMethod => v in FROM_CHOICE;

/**
 * What the affiliate chose. A PayPal address given before the choice existed
 * (at sign-up, or on the old payouts page that only asked for it) counts as
 * choosing PayPal.
 */
export function chosenMethod(affiliate: PayoutMethodAffiliate): string | null {
  return affiliate.payoutMethod ?? (affiliate.paypalEmail ? "paypal" : null);
}

export function resolvePayoutMethod(
  affiliate: PayoutMethodAffiliate,
  settings: Pick<PaymentSettings, "affiliateMethods" | "defaultMethod">,
): { method: PayoutMethod; source: MethodSource } {
  const choice = chosenMethod(affiliate);
  let source: MethodSource = "default";
  if (choice && isAffiliateMethod(choice)) {
    if (!settings.affiliateMethods.includes(choice)) source = "not_offered";
    else if (choice === "paypal" && !affiliate.paypalEmail) source = "incomplete";
    else return { method: FROM_CHOICE[choice], source: "choice" };
  }
  if (settings.defaultMethod === "paypal" && !affiliate.paypalEmail) return { method: "manual", source };
  return { method: settings.defaultMethod, source };
}

export function payoutMethodFor(
  affiliate: PayoutMethodAffiliate,
  settings: Pick<PaymentSettings, "affiliateMethods" | "defaultMethod">,
): PayoutMethod {
  return resolvePayoutMethod(affiliate, settings).method;
}
