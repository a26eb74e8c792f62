import { describe, expect, it } from "vitest";
import { linePaths, nearestIndex, valueAxis, xLabelIndexes, xShare, yShare } from "./chart-scale";

describe("valueAxis", () => {
  it.each([
    // max, unit, top, ticks
    [0, 1, 1, [0, 1]],
    [-5, 1, 1, [0, 1]],
    [1, 1, 1, [0, 1]],
    // Counts never get half steps: 3 clicks read 0, 1, 2, 3.
    [3, 1, 3, [0, 1, 2, 3]],
    [7, 1, 8, [0, 2, 4, 6, 8]],
    [43, 1, 50, [0, 10, 20, 30, 40, 50]],
    [2_500, 1, 2_500, [0, 500, 1_000, 1_500, 2_000, 2_500]],
    [10_001, 1, 12_000, [0, 2_000, 4_000, 6_000, 8_000, 10_000, 12_000]],
    // Money in cents, the axis in dollars: $43.00 reads $0 to $50.
    [4_300, 100, 5_000, [0, 1_000, 2_000, 3_000, 4_000, 5_000]],
    // Under a dollar the steps may be cents but never fractions of one.
    [3, 100, 3, [0, 1, 2, 3]],
    [99, 100, 100, [0, 20, 40, 60, 80, 100]],
    // Yen have no minor unit: the unit is 1 and steps stay whole.
    [2, 1, 2, [0, 1, 2]],
  ])("max %d in units of 1/%d → top %d, ticks %j", (max, unit, top, ticks) => {
    expect(valueAxis(max, unit)).toEqual({ top, ticks });
  });

  it("ends at its top and starts at 0, evenly stepped", () => {
    for (const max of [1, 17, 333, 4_999, 123_456]) {
      const { top, ticks } = valueAxis(max, 100);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBe(top);
      expect(top).toBeGreaterThanOrEqual(max);
      const step = ticks[1]! - ticks[0]!;
      ticks.forEach((t, i) => expect(t).toBe(i * step));
    }
  });
});

describe("xLabelIndexes", () => {
  it.each([
    [0, []],
    [1, [0]],
    [2, [0, 1]],
    [5, [0, 1, 2, 3, 4]],
    [7, [0, 2, 3, 5, 6]],
    [24, [0, 6, 12, 17, 23]],
    [30, [0, 7, 15, 22, 29]],
  ])("%d points → labels under %j", (length, indexes) => {
    expect(xLabelIndexes(length)).toEqual(indexes);
  });
});

describe("shares and paths", () => {
  it("places points across and down the plot", () => {
    expect(xShare(0, 5)).toBe(0);
    expect(xShare(2, 5)).toBe(50);
    expect(xShare(4, 5)).toBe(100);
    expect(xShare(0, 1)).toBe(50);
    expect(yShare(0, 200)).toBe(100);
    expect(yShare(50, 200)).toBe(75);
    expect(yShare(200, 200)).toBe(0);
    expect(yShare(-10, 200)).toBe(100);
  });

  it("draws the line and closes the area on the axis", () => {
    expect(linePaths([0, 50, 100], 100)).toEqual({
      line: "M0,100L50,50L100,0",
      area: "M0,100L50,50L100,0L100,100L0,100Z",
    });
    expect(linePaths([3], 6)).toEqual({ line: "M50,50", area: "M50,50L50,100L50,100Z" });
    expect(linePaths([], 1)).toEqual({ line: "", area: "" });
  });

  it.each([
    [0, 10, 0],
    [4, 10, 0],
    [6, 10, 1],
    [50, 10, 5],
    [100, 10, 9],
    [130, 10, 9],
    [-20, 10, 0],
    [70, 1, 0],
  ])("a pointer at %d%% of %d points is nearest point %d", (share, length, index) => {
    expect(nearestIndex(share, length)).toBe(index);
  });
});
