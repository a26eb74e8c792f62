import { describe, expect, it } from "vitest";
import { adjustmentMinorUnits, adjustmentRule } from "./adjustment";

describe("an adjustment's amount", () => {
  it.each([
    [12.5, "USD", 1250],
    ["12.50", "USD", 1250],
    [-3.1, "USD", -310],
    ["-0.01", "USD", -1],
    ["+7", "EUR", 700],
    [1500, "JPY", 1500],
    ["1500.00", "JPY", 1500],
    ["0.125", "KWD", 125],
    // 0.1 + 0.2 style floats are read by their shortest decimal: no rounding drift.
    [0.3, "USD", 30],
  ] as const)("%j %s is %i minor units", (value, currency, minor) => {
    expect(adjustmentMinorUnits(value, currency)).toEqual({ ok: true, minor });
  });

  it.each([
    [0, "USD", "amount must not be zero"],
    ["0.00", "USD", "amount must not be zero"],
    ["12.345", "USD", "amount: USD has at most 2 decimals"],
    ["10.5", "JPY", "amount: JPY has no decimals"],
    ["12,50", "USD", 'amount "12,50" is not a decimal number'],
    ["ten", "USD", 'amount "ten" is not a decimal number'],
    [Number.NaN, "USD", "amount null is not a decimal number"],
    [1e21, "USD", "amount 1e+21 is not a decimal number"],
    ["1000000.01", "USD", "amount is larger than 1000000 USD"],
  ] as const)("%j %s is refused: %s", (value, currency, problem) => {
    expect(adjustmentMinorUnits(value, currency)).toEqual({ ok: false, problem });
  });
});

describe("an adjustment's line", () => {
  const sale = (status: string, amount = 1000) => ({ status, amount });
  it.each([
    ["pending sale: pending, approved or denied with it", "pending", [sale("pending")], 500, "pending", 1000, 1500],
    ["approved sale: payable at once", "approved", [sale("approved")], -400, "approved", 1000, 600],
    ["paid sale: a new approved line the next payout pays", "paid", [sale("paid")], 250, "approved", 1000, 1250],
    [
      "a refund counted in, a void line not",
      "approved",
      [sale("approved"), { status: "approved", amount: -300 }, { status: "void", amount: 999 }],
      -700,
      "approved",
      700,
      0,
    ],
  ] as const)("%s", (_what, baseStatus, lines, amount, status, before, after) => {
    expect(adjustmentRule({ status: baseStatus }, lines, amount)).toEqual({ ok: true, status, before, after });
  });

  it.each([
    ["denied", [sale("denied")], 100, "denied"],
    ["void", [sale("void")], 100, "void"],
    ["approved", [sale("approved")], -1001, "negative"],
  ] as const)("a %s sale refuses %j %i: %s", (baseStatus, lines, amount, problem) => {
    expect(adjustmentRule({ status: baseStatus }, lines, amount)).toEqual({ ok: false, problem });
  });
});
