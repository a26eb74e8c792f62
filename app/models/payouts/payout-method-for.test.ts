import { describe, expect, it } from "vitest";
import type { PaymentSettings } from "./payment-settings";
import { resolvePayoutMethod, type PayoutMethodAffiliate } from "./payout-method-for";

const shop = (
  defaultMethod: PaymentSettings["defaultMethod"],
  affiliateMethods: PaymentSettings["affiliateMethods"] = ["paypal", "store_credit", "bank"],
) => ({ defaultMethod, affiliateMethods });

const withPaypal: PayoutMethodAffiliate = { paypalEmail: "a@pay.example" };
const noPaypal: PayoutMethodAffiliate = { paypalEmail: null };

describe("resolvePayoutMethod", () => {
  it.each([
    // The affiliate's own choice, when the shop offers it.
    [{ ...withPaypal, payoutMethod: "store_credit" }, shop("paypal"), "store_credit", "choice"],
    [{ ...withPaypal, payoutMethod: "paypal" }, shop("manual"), "paypal", "choice"],
    [{ ...noPaypal, payoutMethod: "bank" }, shop("paypal"), "manual", "choice"],
    // PayPal chosen, no address yet: the default, and the screens say why.
    [{ ...noPaypal, payoutMethod: "paypal" }, shop("store_credit"), "store_credit", "incomplete"],
    // A choice the shop no longer offers: the shop's default.
    [
      { ...withPaypal, payoutMethod: "store_credit" },
      shop("discount_code", ["paypal"]),
      "discount_code",
      "not_offered",
    ],
    [{ ...noPaypal, payoutMethod: "bank" }, shop("csv", ["paypal"]), "csv", "not_offered"],
    // Something unknown stored: treated as no choice.
    [{ ...withPaypal, payoutMethod: "cheque" }, shop("manual"), "manual", "default"],
    // A PayPal address from before the choice existed counts as choosing PayPal.
    [withPaypal, shop("manual"), "paypal", "choice"],
    [withPaypal, shop("manual", ["bank"]), "manual", "not_offered"],
    // No choice: the shop's default; PayPal needs an address.
    [noPaypal, shop("paypal"), "manual", "default"],
    [noPaypal, shop("csv"), "csv", "default"],
    [noPaypal, shop("discount_code"), "discount_code", "default"],
  ] as const)("%j with %j pays by %s (%s)", (affiliate, settings, method, source) => {
    expect(resolvePayoutMethod(affiliate, settings)).toEqual({ method, source });
  });
});
