import { describe, expect, it } from "vitest";
import { currencyExponent } from "../../lib/money";
import { buildPayoutRequest, itemOutcome, paypalAmount } from "./paypal-payout-items";

describe("paypalAmount", () => {
  it.each([
    [1234, "USD", "12.34"],
    [5, "USD", "0.05"],
    [100, "EUR", "1.00"],
    [0, "USD", "0.00"],
    [1500, "JPY", "1500"],
    [12345, "KWD", "12.345"],
    [-250, "USD", "-2.50"],
    // A converted HUF payout is whole (PayPal refuses HUF decimals), whatever digits Node's ICU gives HUF.
    [3951 * 10 ** currencyExponent("HUF"), "HUF", "3951"],
  ])("%i %s → %s", (minor, currency, text) => {
    expect(paypalAmount(minor, currency)).toBe(text);
  });
});

describe("buildPayoutRequest", () => {
  it("uses the batch id as sender_batch_id and each payout id as sender_item_id, in the payout's currency", () => {
    const body = buildPayoutRequest(
      "batch_1",
      [
        { id: "p1", amount: 1999, currency: "USD", paypalEmail: "ana@example.com" },
        { id: "p2", amount: 700, currency: "JPY", paypalEmail: "ben@example.com" },
      ],
      { subject: "You got paid", note: "Commissions" },
    );
    expect(body.sender_batch_header.sender_batch_id).toBe("batch_1");
    expect(body.items.map((i) => [i.sender_item_id, i.receiver, i.amount.currency, i.amount.value])).toEqual([
      ["p1", "ana@example.com", "USD", "19.99"],
      ["p2", "ben@example.com", "JPY", "700"],
    ]);
  });
});

describe("itemOutcome", () => {
  it.each([
    ["SUCCESS", "paid"],
    ["FAILED", "failed"],
    ["RETURNED", "failed"],
    ["BLOCKED", "failed"],
    ["REFUNDED", "failed"],
    ["REVERSED", "failed"],
    ["UNCLAIMED", "progress"],
    ["ONHOLD", "progress"],
    ["HELD", "progress"],
    ["PENDING", "progress"],
    ["SOMETHING_NEW", "unknown"],
    [undefined, "unknown"],
  ])("%s → %s", (status, kind) => {
    expect(itemOutcome(status).kind).toBe(kind);
  });

  it("names the PayPal state in the failure reason", () => {
    expect(itemOutcome("RETURNED")).toEqual({ kind: "failed", reasonKey: "Payouts:paypal.failure.RETURNED" });
  });
});
