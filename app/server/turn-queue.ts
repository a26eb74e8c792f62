// Starts at most `perTurn` requests' worth per turn of the event loop, in the order
// they came; the rest wait for the next turns. Node.js 20 and later accept one
// new connection per turn (libuv 1.45), and a turn of a busy process used to
// start every request that had arrived: with 200 busy connections a turn took
// a few hundred milliseconds, and a new connection waited seconds in the
// kernel's accept queue before the app saw its request (ADR 061). With a
// bound on the requests a turn starts, turns stay short, new connections are
// accepted within a few of them, and every request, old connection or new,
// waits its turn in one queue.

/** Requests a turn starts: about 10 to 20 ms of work in the app's heavier mix. */
export const REQUESTS_PER_TURN = 8;

/**
 * What a click costs of a turn's budget: a /r/ click is a few tens of
 * microseconds of work (a cached look-up, a row for the group commit), about
 * a fiftieth of a page's. Counted as a whole request, a turn of clicks was
 * 8 of them and the click bench lost 10 to 20 % of its throughput to the
 * extra turns (ADR 061's addendum); 64 clicks are still a short turn.
 */
export const CLICK_COST = 1 / 8;

export function createTurnQueue<A extends unknown[]>(
  start: (...args: A) => void,
  perTurn = REQUESTS_PER_TURN,
  cost: (...args: A) => number = () => 1,
) {
  const waiting: A[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    for (let budget = perTurn; budget > 0 && waiting.length > 0;) {
      const args = waiting.shift()!;
      budget -= cost(...args);
      start(...args);
    }
    // An immediate set from an immediate runs in the next turn, after its
    // poll phase (where the next connection is accepted).
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    scheduled = true;
    setImmediate(drain);
  };
  return {
    push(...args: A) {
      waiting.push(args);
      if (!scheduled) schedule();
    },
    /** Requests waiting to start (for metrics and tests). */
    get length() {
      return waiting.length;
    },
  };
}
