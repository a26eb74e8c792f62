import { describe, expect, it } from "vitest";
import { attributionSentence, saleActions } from "./sale-explanation";

describe("attributionSentence", () => {
  it("prefers the reason stored when the order was credited", () => {
    const reason = "Credited to Anna Test (ANNA): their coupon ANNA10 was used at checkout.";
    expect(attributionSentence({ source: "coupon", reason, affiliateName: "Anna Test" })).toBe(reason);
  });

  it.each([
    [
      "none",
      null,
      "Not credited to any affiliate: the order carried no affiliate coupon, referral link click or lifetime customer link.",
    ],
    ["coupon", "Anna Test", "Credited to Anna Test: their coupon code was used at checkout."],
    ["link", "Anna Test", "Credited to Anna Test: the customer clicked their referral link within the cookie window."],
    ["pixel", "Anna Test", "Credited to Anna Test: the store's checkout pixel reported their referral."],
    ["lifetime", "Anna Test", "Credited to Anna Test: the customer is linked to them for life by an earlier referral."],
  ])("explains source %s without a stored reason", (source, affiliateName, sentence) => {
    expect(attributionSentence({ source, reason: "", affiliateName })).toBe(sentence);
  });
});

describe("saleActions", () => {
  it.each([
    ["pending", true],
    ["approved", false],
    ["denied", false],
    ["paid", false],
    ["void", false],
  ])("%s: approve/deny allowed = %s", (status, allowed) => {
    expect(saleActions(status)).toEqual({ canApprove: allowed, canDeny: allowed });
  });
});
