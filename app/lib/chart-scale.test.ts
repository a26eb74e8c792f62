import { describe, expect, it } from "vitest";
import { niceCeiling } from "./chart-scale";

describe("niceCeiling", () => {
  it.each([
    [0, 1],
    [-5, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [11, 20],
    [24, 25],
    [4_317, 5_000],
    [10_001, 20_000],
    [2_500, 2_500],
  ])("%d → %d", (max, top) => {
    expect(niceCeiling(max)).toBe(top);
  });
});
