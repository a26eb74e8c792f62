import { currencyExponent } from "../../lib/money";
import { describe, expect, it } from "vitest";
import { convertedMinor, payoutConversion, rateHold, RATE_MAX_AGE_HOURS, type MerchantRate } from "./payout-conversion";

const now = new Date("2026-11-28T12:00:00Z");
const rate = (to: string, value: string, at: string, by = "Ana"): MerchantRate => ({
  from: "USD",
  to,
  rate: value,
  at,
  source: "merchant",
  by,
});
const rates = [
  rate("CAD", "1.30", "2026-11-20T12:00:00Z", "Ben"),
  rate("CAD", "1.3521", "2026-11-27T09:00:00Z"),
  rate("JPY", "150.12", "2026-11-28T08:00:00Z"),
  rate("HUF", "395.5", "2026-11-28T08:00:00Z"),
  rate("EUR", "0.92", "2026-11-10T08:00:00Z"),
];
const hufUnit = 10 ** currencyExponent("HUF");
const allowed = ["CAD", "JPY", "HUF", "EUR"];

describe("payoutConversion", () => {
  it.each([
    // amount (USD cents), method, payout currency, expected
    [10000, "paypal", "CAD", { kind: "convert", currency: "CAD", amount: 13521, rate: "1.3521", by: "Ana" }],
    [12345, "manual", "CAD", { kind: "convert", currency: "CAD", amount: 16692 }], // 166.916745 → 166.92
    [1, "csv", "CAD", { kind: "convert", amount: 1 }], // 1.3521 cents → 1
    [12345, "paypal", "JPY", { kind: "convert", currency: "JPY", amount: 18532, rate: "150.12" }], // JPY: no decimals
    // PayPal takes HUF whole (3951.045 → 3951), kept in ISO minor units (Node's ICU gives HUF 0 or 2 digits).
    [999, "paypal", "HUF", { kind: "convert", currency: "HUF", amount: 3951 * hufUnit }],
    [10000, "paypal", "EUR", { kind: "wait", reason: "rate_stale", currency: "EUR" }], // 18 days old
    [10000, "paypal", "GBP", { kind: "none" }], // not allowed by the merchant
    [10000, "paypal", "USD", { kind: "none" }], // the shop's own
    [10000, "paypal", null, { kind: "none" }],
    [10000, "store_credit", "CAD", { kind: "none" }], // Shopify money: shop currency
    [10000, "gift_card", "CAD", { kind: "none" }],
  ])("%i USD by %s in %s", (amount, method, payoutCurrency, expected) => {
    const result = payoutConversion({
      payout: { amount, currency: "USD", method },
      shopCurrency: "USD",
      payoutCurrency,
      allowed,
      rates,
      now,
    });
    expect(result).toMatchObject(expected);
  });

  it("waits when the pair has no rate at all (never inverted, never crossed)", () => {
    const result = payoutConversion({
      payout: { amount: 500, currency: "USD", method: "paypal" },
      shopCurrency: "USD",
      payoutCurrency: "MXN",
      allowed: ["MXN"],
      rates: [{ from: "MXN", to: "USD", rate: "0.05", at: now.toISOString(), source: "merchant", by: "Ana" }],
      now,
    });
    expect(result).toEqual({ kind: "wait", reason: "rate_missing", currency: "MXN" });
  });

  it("leaves a payout in another currency than the shop's as it is", () => {
    const result = payoutConversion({
      payout: { amount: 500, currency: "EUR", method: "paypal" },
      shopCurrency: "USD",
      payoutCurrency: "CAD",
      allowed,
      rates,
      now,
    });
    expect(result).toEqual({ kind: "none" });
  });

  it("takes a rate exactly at the limit and not a minute past it", () => {
    const at = new Date(now.getTime() - RATE_MAX_AGE_HOURS * 3_600_000).toISOString();
    const input = {
      payout: { amount: 100, currency: "USD", method: "paypal" },
      shopCurrency: "USD",
      payoutCurrency: "CAD",
      allowed,
      rates: [rate("CAD", "2", at)],
    };
    expect(payoutConversion({ ...input, now }).kind).toBe("convert");
    expect(payoutConversion({ ...input, now: new Date(now.getTime() + 60_000) }).kind).toBe("wait");
  });
});

describe("convertedMinor", () => {
  it.each([
    [10000, "USD", "CAD", "1.3521", "paypal", 13521],
    [10000, "USD", "TWD", "32.156", "paypal", 3216 * 10 ** currencyExponent("TWD")], // TWD whole at PayPal
    [10000, "USD", "EUR", "0.92345", "manual", 9235],
    [1000, "JPY", "USD", "0.00666134", "paypal", 666],
    [1, "USD", "KWD", "0.3075", "manual", 3], // 3 digits: 0.003075 → 0.003
    [3, "USD", "EUR", "0.5", "paypal", 2], // 1.5 cents: half away from zero
  ])("%i %s → %s at %s by %s is %i", (amount, from, to, r, method, result) => {
    expect(convertedMinor(amount, from, to, r, method)).toBe(result);
  });
});

describe("rateHold", () => {
  it("names the currency that has no fresh rate, and nothing otherwise", () => {
    const base = { shopCurrency: "USD", allowed, rates, now };
    expect(rateHold({ ...base, payout: { amount: 1, currency: "USD" }, payoutCurrency: "EUR" })).toMatchObject({
      reason: "rate_stale",
      currency: "EUR",
    });
    expect(rateHold({ ...base, payout: { amount: 1, currency: "USD" }, payoutCurrency: "CAD" })).toBeNull();
  });
});
