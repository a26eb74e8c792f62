import { describe, expect, it } from "vitest";
import { balanceOf, isPayable, LOOSE_SQL, PAYABLE_SQL, totalsByCurrency, type CommissionLine } from "./payable-balance";

const line = (
  status: string,
  amount: number,
  currency = "USD",
  payoutId: string | null = null,
  payoutStatus: string | null = null,
): CommissionLine => ({ status, amount, currency, payoutId, payoutStatus });

describe("the payable balance", () => {
  it.each([
    ["nothing", [], { payable: [], pending: [] }],
    ["an approved line", [line("approved", 1000)], { payable: [{ currency: "USD", amount: 1000 }], pending: [] }],
    [
      "a refund line reduces it",
      [line("approved", 1000), line("approved", -300)],
      { payable: [{ currency: "USD", amount: 700 }], pending: [] },
    ],
    [
      "it can be negative (refunded after the payout)",
      [line("paid", 1000, "USD", "p1"), line("approved", -1000)],
      { payable: [{ currency: "USD", amount: -1000 }], pending: [] },
    ],
    [
      "lines already in a payout are not owed again",
      [line("approved", 1000, "USD", "p1"), line("approved", 200)],
      { payable: [{ currency: "USD", amount: 200 }], pending: [] },
    ],
    [
      "lines gathered in a pending payout are still owed",
      [line("approved", 1000, "USD", "p1", "pending"), line("approved", 200)],
      { payable: [{ currency: "USD", amount: 1200 }], pending: [] },
    ],
    [
      "lines of a payout on its way are not",
      [line("approved", 1000, "USD", "p1", "processing"), line("approved", 200)],
      { payable: [{ currency: "USD", amount: 200 }], pending: [] },
    ],
    [
      "pending lines wait for approval",
      [line("pending", 500), line("approved", 100)],
      { payable: [{ currency: "USD", amount: 100 }], pending: [{ currency: "USD", amount: 500 }] },
    ],
    [
      "denied, void and paid lines count for nothing",
      [line("denied", 1), line("void", 2), line("paid", 3, "USD", "p1")],
      { payable: [], pending: [] },
    ],
    [
      "currencies are never added together",
      [line("approved", 1234, "USD"), line("approved", 500, "EUR"), line("pending", 70, "JPY")],
      {
        payable: [
          { currency: "EUR", amount: 500 },
          { currency: "USD", amount: 1234 },
        ],
        pending: [{ currency: "JPY", amount: 70 }],
      },
    ],
    [
      "a currency whose lines cancel out shows as zero",
      [line("approved", 400, "EUR"), line("approved", -400, "EUR")],
      { payable: [{ currency: "EUR", amount: 0 }], pending: [] },
    ],
  ])("%s", (_name, lines, expected) => {
    expect(balanceOf(lines)).toEqual(expected);
  });

  it("is the same rule in memory and in SQL", () => {
    expect(isPayable({ status: "approved", payoutId: null })).toBe(true);
    expect(isPayable({ status: "approved", payoutId: "p1" })).toBe(false);
    expect(isPayable({ status: "approved", payoutId: "p1", payoutStatus: "pending" })).toBe(true);
    expect(LOOSE_SQL).toBe(
      `"status" = 'approved' AND "payoutId" IS NULL AND ("orderId" IS NULL OR "orderId" NOT IN (SELECT "id" FROM "Order" WHERE "leakHoldId" IS NOT NULL))`,
    );
    expect(PAYABLE_SQL).toContain(`"status" = 'approved' AND ("payoutId" IS NULL OR EXISTS`);
  });

  it("sums per currency in currency order", () => {
    expect(
      totalsByCurrency([
        { currency: "USD", amount: 1 },
        { currency: "CAD", amount: 2 },
        { currency: "USD", amount: 3 },
      ]),
    ).toEqual([
      { currency: "CAD", amount: 2 },
      { currency: "USD", amount: 4 },
    ]);
  });
});
