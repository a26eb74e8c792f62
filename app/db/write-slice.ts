// How many jobs of a batching type go into one SQLite write transaction.
// Every other writer of the file waits for that transaction, so its length
// is held near a target instead of a fixed count: a type whose jobs write a
// lot (an order with its commissions, events and jobs) gets smaller slices
// than one whose jobs write a row each, and when the machine is busy (each
// job takes longer) slices shrink until it is not. The time per job is
// learned from the holds themselves, smoothed so one slow hold (a garbage
// collection, a checkpoint) does not halve the next slice on its own.

/** The hold a slice aims at: half the 50 ms bound the load bench holds every job type to. */
export const TARGET_HOLD_MS = 25;

const SMOOTHING = 0.3;

/**
 * The slice of a type nothing is learned of yet (a worker's first batch of
 * it): its first hold is its slowest (statements prepared, code not yet
 * optimised, pages not yet cached); a whole claim of 50 orders held the lock
 * 81 ms in the load bench on a slow machine. Four jobs stay within the target
 * up to ~6 ms a job.
 */
export const FIRST_SLICE = 4;

/** The next estimate of a type's write time per job, from the last one and a hold of `jobs` jobs. */
export function nextMsPerJob(previous: number | undefined, heldMs: number, jobs: number): number {
  const observed = heldMs / Math.max(1, jobs);
  return previous === undefined ? observed : previous + SMOOTHING * (observed - previous);
}

/** Jobs in the next slice: as many as fit the target at the estimated time per job, 1 to `most`. */
export function sliceSize(msPerJob: number | undefined, most: number, targetMs = TARGET_HOLD_MS): number {
  if (msPerJob === undefined) return Math.min(most, FIRST_SLICE);
  if (msPerJob <= 0) return most;
  return Math.max(1, Math.min(most, Math.floor(targetMs / msPerJob)));
}
