import { describe, expect, it } from "vitest";
import { groupsToOpen, isPayableAmount, type LooseGroup } from "./pending-plan";

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
