import { describe, expect, it } from "vitest";
import { FIRST_SLICE, nextMsPerJob, sliceSize, TARGET_HOLD_MS } from "./write-slice";

describe("sliceSize", () => {
  it.each([
    // [ms per job, most, expected]
    [undefined, 16, FIRST_SLICE], // nothing learned yet: a small first slice
    [undefined, 2, 2],
    [0, 16, 16],
    [0.5, 16, 16], // 50 would fit: capped at the bound
    [1.5, 16, 16], // 16 × 1.5 = 24 ms
    [2, 16, 12],
    [3, 16, 8],
    [10, 16, 2],
    [25, 16, 1],
    [80, 16, 1], // one job alone still runs
    [3, 4, 4],
  ])("%s ms per job, at most %s: %s jobs", (msPerJob, most, expected) => {
    expect(sliceSize(msPerJob, most)).toBe(expected);
  });

  it("keeps a full slice within the target", () => {
    for (const msPerJob of [0.7, 1.3, 2.2, 4.9, 12.5])
      expect(sliceSize(msPerJob, 16) * msPerJob).toBeLessThanOrEqual(TARGET_HOLD_MS);
  });

  it("starts small: a type's first hold, before anything is learned, stays within the target even at 5 ms a job", () => {
    expect(FIRST_SLICE * 5).toBeLessThanOrEqual(TARGET_HOLD_MS);
    expect(FIRST_SLICE).toBeGreaterThan(1);
  });
});

describe("nextMsPerJob", () => {
  it.each([
    // [previous, held ms, jobs, expected]
    [undefined, 30, 10, 3], // the first hold is taken as it is
    [undefined, 12, 0, 12],
    [3, 3 * 8, 8, 3], // a hold like the estimate leaves it
    [2, 80, 8, 2 + 0.3 * (10 - 2)], // one slow hold moves it part of the way
    [10, 8, 8, 10 + 0.3 * (1 - 10)],
  ])("from %s after %s ms for %s jobs: %s", (previous, held, jobs, expected) => {
    expect(nextMsPerJob(previous, held, jobs)).toBeCloseTo(expected, 10);
  });

  it("shrinks slices while holds run long and grows them back when they are short", () => {
    let estimate: number | undefined;
    const sizes: number[] = [];
    for (const msPerJob of [1, 1, 6, 6, 6, 6, ...Array<number>(12).fill(1)]) {
      const size = sliceSize(estimate, 16);
      sizes.push(size);
      estimate = nextMsPerJob(estimate, size * msPerJob, size);
    }
    expect(sizes.slice(0, 3)).toEqual([FIRST_SLICE, 16, 16]);
    expect(Math.min(...sizes.slice(3, 7))).toBeLessThanOrEqual(5);
    expect(sizes.at(-1)).toBe(16);
  });
});
