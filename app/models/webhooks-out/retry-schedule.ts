// When a failed webhook is tried again: attempt 1 at once, then after 5 s,
// 5 min, 30 min, 2 h, 5 h, 8 h and 8 h (8 attempts spread over about 24 h);
// after the last one the delivery is failed. A manual redelivery starts a
// new run with the same schedule. Pure, so the schedule has a table test.

export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 28_800, 28_800] as const;

/** An endpoint whose deliveries have failed without a success for this long is turned off. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

/**
 * The wait before the next attempt after attempt number `attemptInRun`
 * (1-based, counted from the start of the run) failed; null when the run is over.
 */
export function nextRetryDelaySeconds(attemptInRun: number): number | null {
  if (!Number.isInteger(attemptInRun) || attemptInRun < 1) return null;
  return RETRY_DELAYS_SECONDS[attemptInRun - 1] ?? null;
}

/** Whether an endpoint failing since `failingSince` is turned off at `now`. */
export function shouldDisableEndpoint(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
}
