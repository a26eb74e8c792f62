import { describe, expect, it } from "vitest";
import {
  DISABLE_AFTER_FAILING_MS,
  nextRetryDelaySeconds,
  RETRY_DELAYS_SECONDS,
  shouldDisableEndpoint,
} from "./retry-schedule";

describe("nextRetryDelaySeconds", () => {
  it.each([
    [1, 5],
    [2, 300],
    [3, 1800],
    [4, 7200],
    [5, 18_000],
    [6, 28_800],
    [7, 28_800],
    [8, null],
    [9, null],
    [0, null],
    [-1, null],
    [1.5, null],
  ])("after attempt %s waits %s s", (attempt, expected) => {
    expect(nextRetryDelaySeconds(attempt)).toBe(expected);
  });

  it("spreads the attempts over about a day and grows each time", () => {
    const total = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(28);
    for (let i = 1; i < RETRY_DELAYS_SECONDS.length; i++)
      expect(RETRY_DELAYS_SECONDS[i]!).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i - 1]!);
  });
});

describe("shouldDisableEndpoint", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  it.each([
    [null, false],
    [new Date(now.getTime() - 1000), false],
    [new Date(now.getTime() - DISABLE_AFTER_FAILING_MS + 1), false],
    [new Date(now.getTime() - DISABLE_AFTER_FAILING_MS), true],
    [new Date(now.getTime() - 10 * DISABLE_AFTER_FAILING_MS), true],
  ])("failing since %s: %s", (since, expected) => {
    expect(shouldDisableEndpoint(since, now)).toBe(expected);
  });
});
