import { describe, expect, it } from "vitest";
import { decimalToMinor, lowestPriceMinor } from "./product-price";

describe("decimalToMinor", () => {
  it.each([
    ["19.99", 2, 1999],
    ["19.9", 2, 1990],
    ["19", 2, 1900],
    ["0.29", 2, 29],
    ["1000.0", 0, 1000],
    ["1000.5", 0, 1001],
    ["0.005", 2, 1],
    ["0.004", 2, 0],
    ["12.3456", 3, 12346],
    [" 5.00 ", 2, 500],
  ])("%s with %i decimals is %i", (text, exponent, minor) => {
    expect(decimalToMinor(text, exponent)).toBe(minor);
  });

  it.each(["", "-1.00", "1e3", "abc", "1,5", "99999999999999.00"])("refuses %j", (text) => {
    expect(decimalToMinor(text, 2)).toBeNull();
  });
});

describe("lowestPriceMinor", () => {
  it("takes the lowest variant price that parses", () => {
    expect(lowestPriceMinor(["129.00", "119.50", null, "n/a"], 2)).toBe(11950);
  });
  it("is null without a usable price", () => {
    expect(lowestPriceMinor([], 2)).toBeNull();
    expect(lowestPriceMinor([null, "x"], 2)).toBeNull();
  });
});
