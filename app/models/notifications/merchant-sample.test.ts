import { describe, expect, it } from "vitest";
import { merchantSample } from "./merchant-sample";

const shop = {
  name: "Nordlicht Kerzen",
  url: "https://nordlicht.example/",
  portalUrl: "https://app.test/portal/nordlicht",
  shortLinkBase: "https://app.test/r/nordlicht/",
  currency: "EUR",
  languageTag: "de-DE",
};

describe("merchantSample", () => {
  it.each([
    ["shop.name", "Aurora Candles", "Nordlicht Kerzen"],
    ["shop.url", "https://aurora-candles.example", "https://nordlicht.example"],
    ["referral_link", "https://aurora-candles.example/?ref=JANEDOE", "https://nordlicht.example/?ref=JANEDOE"],
    ["referral_link", "https://app.example/r/aurora-candles/JANEDOE", "https://app.test/r/nordlicht/JANEDOE"],
    ["portal_url", "https://app.example/portal/aurora-candles", "https://app.test/portal/nordlicht"],
    [
      "reset_url",
      "https://app.example/portal/aurora-candles/reset?token=sample",
      "https://app.test/portal/nordlicht/reset?token=sample",
    ],
    ["payout.amount", "$120.00", "120,00\u00a0€"],
    ["digest.revenue", "$2,960.00", "2.960,00\u00a0€"],
    ["commission.reduction", "-$5.00", "-5,00\u00a0€"],
    ["commission.order", "#1001", "#1001"],
    ["affiliate.first_name", "Jane", "Jane"],
  ])("%s: %s → %s", (name, sample, expected) => {
    expect(merchantSample({ [name]: sample }, shop)[name]).toBe(expected);
  });

  it("adds no variable the kind does not have", () => {
    expect(merchantSample({ "staff.name": "Sam" }, shop)).toEqual({ "staff.name": "Sam" });
  });

  it("writes amounts in a currency without minor units in its own form", () => {
    expect(merchantSample({ a: "$12.50" }, { ...shop, currency: "JPY", languageTag: "en-US" }).a).toBe("¥1,250");
  });
});
