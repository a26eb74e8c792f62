import { describe, expect, it } from "vitest";
import { currencyExponent, formatMoney, formatMoneyTotals } from "./money";

describe("formatMoney", () => {
  it.each([
    // [minor, format, currency, expected]
    [0, undefined, "USD", "$0.00"],
    [5, undefined, "USD", "$0.05"],
    [123456, undefined, "USD", "$1,234.56"],
    [123456789, "${{amount}}", "USD", "$1,234,567.89"],
    [-1999, undefined, "USD", "-$19.99"],
    [123456, "${{amount_no_decimals}}", "USD", "$1,235"],
    [123449, "${{amount_no_decimals}}", "USD", "$1,234"],
    [150, "${{amount_no_decimals}}", "USD", "$2"],
    [-150, "${{amount_no_decimals}}", "USD", "-$2"],
    [-40, "${{amount_no_decimals}}", "USD", "$0"],
    [123456, "{{amount_with_comma_separator}} €", "EUR", "1.234,56 €"],
    [123456, "{{amount_no_decimals_with_comma_separator}} kr", "SEK", "1.235 kr"],
    [123456, "{{ amount }} USD", "USD", "1,234.56 USD"],
    [1234, "¥{{amount}}", "JPY", "¥1,234"],
    [1234, "¥{{amount_no_decimals}}", "JPY", "¥1,234"],
    [12345, "{{amount}} KWD", "KWD", "12.345 KWD"],
    [999, "no placeholder", "USD", "$9.99"],
    [999, "{{unknown_thing}}", "USD", "9.99"],
  ])("%i with %s in %s gives %s", (minor, format, currency, expected) => {
    expect(formatMoney(minor, { format, currency })).toBe(expected);
  });

  it("defaults to dollars with two decimals", () => {
    expect(formatMoney(1000)).toBe("$10.00");
  });

  it("refuses non-finite amounts", () => {
    expect(() => formatMoney(Number.NaN)).toThrow(TypeError);
  });
});

describe("currencyExponent", () => {
  it.each([
    ["USD", 2],
    ["EUR", 2],
    ["JPY", 0],
    ["KWD", 3],
    ["not-a-currency", 2],
  ])("%s has %i decimals", (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });
});

describe("formatMoneyTotals", () => {
  const shop = { currency: "EUR", format: "{{amount_with_comma_separator}} €" };
  it.each([
    [[], "0,00 €"],
    [[{ currency: "EUR", amount: 1234 }], "12,34 €"],
    [[{ currency: "EUR", amount: -300 }], "-3,00 €"],
    // Another currency keeps its own code: never the shop's symbol on a dollar amount.
    [[{ currency: "USD", amount: 500 }], "5.00 USD"],
    [
      [
        { currency: "EUR", amount: 1234 },
        { currency: "JPY", amount: 1500 },
      ],
      "12,34 € + 1,500 JPY",
    ],
  ])("%j → %s", (totals, expected) => {
    expect(formatMoneyTotals(totals, shop)).toBe(expected);
  });
});
