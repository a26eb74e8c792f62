import { describe, expect, it } from "vitest";
import { percentOf } from "./calculate-commission";

describe("percentOf (half-up per line)", () => {
  it.each([
    // [amount minor, basis points, expected]
    [10000, 1000, 1000], // 10 % of $100.00
    [999, 1000, 100], // 99.9 -> 100
    [995, 1000, 100], // 99.5 -> 100 (half up)
    [994, 1000, 99], // 99.4 -> 99
    [5, 1000, 1], // 0.5 -> 1
    [4, 1000, 0], // 0.4 -> 0
    [0, 1000, 0],
    [12345, 0, 0],
    [12345, 10000, 12345], // 100 %
    [333, 3333, 111], // 110.9889 -> 111
    [1, 5000, 1], // 0.5 -> 1
    [3, 5000, 2], // 1.5 -> 2
  ])("%i at %i bps = %i", (amount, bps, expected) => {
    expect(percentOf(amount, bps)).toBe(expected);
  });

  it("refuses fractions and negatives", () => {
    expect(() => percentOf(1.5, 100)).toThrow(TypeError);
    expect(() => percentOf(100, 12.5)).toThrow(TypeError);
    expect(() => percentOf(-1, 100)).toThrow(RangeError);
  });
});
