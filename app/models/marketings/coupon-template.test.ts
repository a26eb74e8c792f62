import { describe, expect, it } from "vitest";
import { couponCode, decimalAmount, discountInput } from "./coupon-template";

const template = (over: Partial<Parameters<typeof discountInput>[0]> = {}) => ({
  couponDiscountType: "percentage",
  couponDiscountValue: 1000,
  couponPrefix: "",
  couponOncePerCustomer: true,
  ...over,
});

describe("affiliate coupon template", () => {
  it.each([
    ["", "anna7", "ANNA7"],
    ["summer-", "ANNA7", "SUMMER-ANNA7"],
    ["vip ", "bo", "VIPBO"],
  ])("code of prefix %j and referral code %j is %j", (prefix, ref, code) => {
    expect(couponCode(prefix, ref)).toBe(code);
  });

  it.each([
    [1250, 2, "12.50"],
    [5, 2, "0.05"],
    [1000, 0, "1000"],
    [1234, 3, "1.234"],
  ])("%i minor units with %i decimals is %j", (minor, digits, text) => {
    expect(decimalAmount(minor, digits)).toBe(text);
  });

  it("maps a percentage in basis points to Shopify's fraction, and a fixed amount to a decimal string", () => {
    expect(discountInput(template(), "ANNA", "t").customerGets.value).toEqual({ percentage: 0.1 });
    expect(discountInput(template({ couponDiscountValue: 25_000 }), "ANNA", "t").customerGets.value).toEqual({
      percentage: 1,
    });
    expect(
      discountInput(template({ couponDiscountType: "fixed_amount", couponDiscountValue: 500 }), "ANNA", "t")
        .customerGets.value,
    ).toEqual({ discountAmount: { amount: "5.00", appliesOnEachItem: false } });
    expect(discountInput(template({ couponOncePerCustomer: false }), "ANNA", "t").appliesOncePerCustomer).toBe(false);
  });
});
