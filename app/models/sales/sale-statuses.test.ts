import { describe, expect, it } from "vitest";
import { shownSaleStatus } from "./sale-statuses";

describe("shownSaleStatus", () => {
  it.each([
    ["a pending sale", { status: "pending", credited: true, total: 5_000, refundedAmount: 0 }, "pending"],
    ["an approved sale", { status: "approved", credited: true, total: 5_000, refundedAmount: 1_000 }, "approved"],
    [
      "an approved sale refunded in full",
      { status: "approved", credited: true, total: 5_000, refundedAmount: 5_000 },
      "refunded",
    ],
    [
      "a pending sale refunded in full",
      { status: "pending", credited: true, total: 5_000, refundedAmount: 5_000 },
      "refunded",
    ],
    // Paid out: the refund is taken from the next payout, which its own text says.
    ["a paid sale refunded in full", { status: "paid", credited: true, total: 5_000, refundedAmount: 5_000 }, "paid"],
    ["a denied sale", { status: "denied", credited: true, total: 5_000, refundedAmount: 5_000 }, "denied"],
    [
      "an order credited to nobody",
      { status: "pending", credited: false, total: 5_000, refundedAmount: 0 },
      "uncredited",
    ],
    ["a free order", { status: "approved", credited: true, total: 0, refundedAmount: 0 }, "approved"],
  ])("%s", (_name, sale, shown) => {
    expect(shownSaleStatus(sale)).toBe(shown);
  });
});
