import { describe, expect, it } from "vitest";
import { groupsToOpen, isPayableAmount, pendingToCancel, type LooseGroup } from "./pending-plan";

const g = (affiliateId: string, currency: string, amount: number, lines = 1): LooseGroup => ({
  affiliateId,
  currency,
  amount,
  lines,
});

describe("isPayableAmount", () => {
  it.each([
    [0, 0, false],
    [1, 0, true],
    [-500, 0, false],
    [4999, 5000, false],
    [5000, 5000, true],
    [5001, 5000, true],
  ])("%i with a minimum of %i → %s", (amount, minimum, expected) => {
    expect(isPayableAmount(amount, minimum)).toBe(expected);
  });
});

describe("groupsToOpen", () => {
  it.each([
    ["a balance at the minimum opens a payout", [g("a", "USD", 5000)], [], 5000, ["a:USD"]],
    ["below the minimum it carries over", [g("a", "USD", 4999)], [], 5000, []],
    ["a negative balance carries over", [g("a", "USD", -300, 2)], [], 0, []],
    ["a zero balance opens nothing", [g("a", "USD", 0, 2)], [], 0, []],
    ["an open payout in that currency takes the lines instead", [g("a", "USD", 9000)], ["a:USD"], 0, []],
    [
      "each currency on its own",
      [g("a", "USD", 9000), g("a", "EUR", 10), g("b", "EUR", 7000)],
      ["a:USD"],
      100,
      ["b:EUR"],
    ],
    ["a group without lines is nothing", [g("a", "USD", 9000, 0)], [], 0, []],
  ])("%s", (_name, groups, open, minimum, expected) => {
    const opened = groupsToOpen(groups, new Set(open), minimum).map((x) => `${x.affiliateId}:${x.currency}`);
    expect(opened).toEqual(expected);
  });
});

describe("pendingToCancel", () => {
  const open = [
    { id: "p1", key: "a:USD" },
    { id: "p2", key: "b:USD" },
    { id: "p3", key: "c:EUR" },
  ];
  it.each([
    ["every balance payable: none", { "a:USD": 5000, "b:USD": 9000, "c:EUR": 5001 }, 5000, []],
    ["one just below the minimum", { "a:USD": 4999, "b:USD": 9000, "c:EUR": 5000 }, 5000, ["p1"]],
    ["no loose lines left counts as 0", { "a:USD": 100, "b:USD": 100 }, 0, ["p3"]],
    ["a negative balance with no minimum", { "a:USD": -1, "b:USD": 0, "c:EUR": 1 }, 0, ["p1", "p2"]],
  ])("%s", (_name, balances, minimum, expected) => {
    expect(pendingToCancel(open, new Map(Object.entries(balances)), minimum)).toEqual(expected);
  });
});
