import { describe, expect, it } from "vitest";
import { couponFormSchema, couponValueStored, couponValueText } from "./coupon-form";

const base = {
  campaignId: "c1",
  enabled: true,
  discountType: "percentage",
  value: "10",
  prefix: "SUMMER-",
  oncePerCustomer: true,
};

describe("couponFormSchema", () => {
  it.each([
    [base, true],
    [{ ...base, value: "12,5" }, true],
    [{ ...base, value: "100.01" }, false],
    [{ ...base, discountType: "fixed_amount", value: "150" }, true],
    [{ ...base, value: "0" }, false],
    [{ ...base, enabled: false, value: "0" }, true],
    [{ ...base, value: "ten" }, false],
    [{ ...base, value: "1.234" }, false],
    [{ ...base, prefix: "NO SPACE" }, false],
    [{ ...base, prefix: "x".repeat(21) }, false],
    [{ ...base, campaignId: "" }, false],
  ])("%#: %j valid=%s", (input, ok) => {
    expect(couponFormSchema.safeParse(input).success).toBe(ok);
  });
});

describe("coupon values", () => {
  it.each([
    ["percentage", 1000, 2, "10"],
    ["percentage", 1250, 2, "12.5"],
    ["percentage", 5, 2, "0.05"],
    ["fixed_amount", 500, 2, "5"],
    ["fixed_amount", 1999, 2, "19.99"],
    ["fixed_amount", 500, 0, "500"],
  ])("%s %i (%i decimals) shows %s and stores back", (type, stored, exponent, text) => {
    expect(couponValueText(type, stored, exponent)).toBe(text);
    expect(couponValueStored(type, text, exponent)).toBe(stored);
  });

  it("refuses more decimals than the currency has", () => {
    expect(couponValueStored("fixed_amount", "5.5", 0)).toBeNull();
    expect(couponValueStored("fixed_amount", "12,5", 2)).toBe(1250);
  });
});
