import { describe, expect, it } from "vitest";
import type { PaymentSettings } from "./payment-settings";
import { payoutMethodFor, type PayoutMethodAffiliate } from "./payout-method-for";

const shop = (
  defaultMethod: PaymentSettings["defaultMethod"],
  affiliateMethods: PaymentSettings["affiliateMethods"] = ["paypal", "store_credit", "bank"],
) => ({ defaultMethod, affiliateMethods });

const withPaypal: PayoutMethodAffiliate = { paypalEmail: "a@pay.example" };
const noPaypal: PayoutMethodAffiliate = { paypalEmail: null };

describe("payoutMethodFor", () => {
  it.each([
    // The affiliate's own choice, when the shop offers it.
    [{ ...withPaypal, payoutMethod: "store_credit" }, shop("paypal"), "store_credit"],
    [{ ...noPaypal, payoutMethod: "paypal" }, shop("store_credit"), "store_credit"], // no PayPal address yet
    [{ ...withPaypal, payoutMethod: "paypal" }, shop("manual"), "paypal"],
    [{ ...noPaypal, payoutMethod: "bank" }, shop("paypal"), "manual"],
    // A choice the shop no longer offers: the shop's default.
    [{ ...withPaypal, payoutMethod: "store_credit" }, shop("discount_code", ["paypal"]), "discount_code"],
    // No choice: the shop's default; PayPal needs an address.
    [withPaypal, shop("paypal"), "paypal"],
    [noPaypal, shop("paypal"), "manual"],
    [noPaypal, shop("csv"), "csv"],
    [noPaypal, shop("discount_code"), "discount_code"],
  ] as const)("%j with %j pays by %s", (affiliate, settings, method) => {
    expect(payoutMethodFor(affiliate, settings)).toBe(method);
  });
});
