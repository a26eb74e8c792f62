import { describe, expect, it } from "vitest";
import { convertMinor, impliedRate, isRate, paypalExponent, rateFor, type RateEntry } from "./exchange-rate";

describe("impliedRate", () => {
  it.each([
    // shop money, presentment money, rate (presentment units per shop unit)
    [{ amount: 10000, currency: "USD" }, { amount: 13521, currency: "CAD" }, "1.3521"],
    [{ amount: 10000, currency: "USD" }, { amount: 15012, currency: "JPY" }, "150.12"],
    [{ amount: 15012, currency: "JPY" }, { amount: 10000, currency: "USD" }, "0.00666134"],
    [{ amount: 4999, currency: "EUR" }, { amount: 5, currency: "KWD" }, "0.00010002"],
    [{ amount: 1000, currency: "EUR" }, { amount: 1500, currency: "KWD" }, "0.15"],
    [{ amount: 3, currency: "USD" }, { amount: 1, currency: "USD" }, "0.33333333"],
    [{ amount: 3, currency: "USD" }, { amount: 2, currency: "USD" }, "0.66666667"],
    [{ amount: -500, currency: "USD" }, { amount: -700, currency: "CAD" }, "1.4"],
  ])("%o → %o is %s", (from, to, rate) => {
    expect(impliedRate(from, to)).toBe(rate);
  });

  it("reads no rate from a zero amount or opposite signs", () => {
    expect(impliedRate({ amount: 0, currency: "USD" }, { amount: 100, currency: "CAD" })).toBeNull();
    expect(impliedRate({ amount: 100, currency: "USD" }, { amount: -100, currency: "CAD" })).toBeNull();
  });
});

describe("convertMinor", () => {
  it.each([
    // amount, from, to, rate, exponents, result
    [10000, "USD", "CAD", "1.3521", "intl", 13521],
    [12345, "USD", "CAD", "1.3521", "intl", 16692], // 166.916745 → 166.92
    [12345, "USD", "JPY", "150.12", "paypal", 18532], // 18532.314
    [999, "EUR", "HUF", "395.5", "paypal", 3951], // 3951.045: PayPal takes HUF whole
    [10000, "USD", "TWD", "32.1", "paypal", 3210],
    [1000, "JPY", "USD", "0.00666134", "intl", 666], // ¥1,000 → $6.66134
    [1, "USD", "CAD", "1.5", "intl", 2], // half away from zero
    [-1, "USD", "CAD", "1.5", "intl", -2],
    [-12345, "USD", "CAD", "1.3521", "intl", -16692],
    [5000, "USD", "USD", "1.3521", "intl", 5000], // same currency: no conversion
    [100000000, "USD", "CAD", "1.000000005", "intl", 100000001], // the 9th decimal rounds the rate up
  ])("%i %s → %s at %s (%s digits) is %i", (amount, from, to, rate, digits, result) => {
    expect(convertMinor(amount, from, to, rate, digits === "paypal" ? paypalExponent : undefined)).toBe(result);
  });
});

describe("paypalExponent", () => {
  it.each([
    ["USD", 2],
    ["CAD", 2],
    ["JPY", 0],
    ["HUF", 0],
    ["TWD", 0],
    ["EUR", 2],
    ["jpy", 0],
  ])("%s has %i digits at PayPal", (currency, digits) => {
    expect(paypalExponent(currency)).toBe(digits);
  });
});

describe("isRate", () => {
  it.each([
    ["1.3521", true],
    ["150", true],
    ["0.0001", true],
    ["0", false],
    ["0.000", false],
    ["-1.2", false],
    ["1,35", false],
    ["1e3", false],
    ["", false],
  ])("%s → %s", (text, ok) => {
    expect(isRate(text)).toBe(ok);
  });
});

describe("rateFor", () => {
  const now = new Date("2026-11-28T12:00:00Z");
  const entries: RateEntry[] = [
    { from: "USD", to: "CAD", rate: "1.35", at: "2026-11-27T09:00:00Z", source: "merchant" },
    { from: "USD", to: "CAD", rate: "1.36", at: "2026-11-28T09:00:00Z", source: "merchant" },
    { from: "USD", to: "EUR", rate: "0.91", at: "2026-11-01T09:00:00Z", source: "merchant" },
    { from: "CAD", to: "USD", rate: "0.74", at: "2026-11-28T09:00:00Z", source: "merchant" },
  ];

  it("takes the newest fresh rate of the pair", () => {
    expect(rateFor(entries, "USD", "CAD", now, 48)).toMatchObject({
      ok: true,
      rate: "1.36",
      at: "2026-11-28T09:00:00Z",
      source: "merchant",
    });
  });

  it("waits on a stale rate and says since when", () => {
    expect(rateFor(entries, "USD", "EUR", now, 48)).toEqual({
      ok: false,
      reason: "rate_stale",
      values: { from: "USD", to: "EUR", at: "2026-11-01T09:00:00Z" },
    });
  });

  it("never derives a rate from the inverse pair or another currency", () => {
    expect(rateFor(entries, "EUR", "USD", now, 48)).toMatchObject({ ok: false, reason: "rate_missing" });
    expect(rateFor(entries, "CAD", "EUR", now, 48)).toMatchObject({ ok: false, reason: "rate_missing" });
  });
});
