import { describe, expect, it } from "vitest";
import { createTurnQueue } from "./turn-queue";

describe("the turn queue", () => {
  it("starts at most perTurn requests per turn of the event loop, in the order they came", async () => {
    // A ticker counts the turns: set before the pushes, it runs first in each turn's check phase.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const started: [turn: number, n: number][] = [];
    const queue = createTurnQueue((n: number) => started.push([turn, n]), 3);
    for (let n = 1; n <= 8; n++) queue.push(n);
    // Nothing starts before the current callback has ended.
    expect(started).toEqual([]);
    while (started.length < 8) await new Promise((resolve) => setTimeout(resolve, 1));
    ticking = false;
    const first = started[0]![0];
    expect(started.map(([t, n]) => [t - first, n])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 4],
      [1, 5],
      [1, 6],
      [2, 7],
      [2, 8],
    ]);
  });

  it("lets the process's timers and I/O run between two turns of starts", async () => {
    const order: string[] = [];
    const queue = createTurnQueue((n: number) => {
      order.push(`start ${n}`);
      if (n !== 1) return;
      // A timer due by the next turn runs in its timers phase, before the next start.
      setTimeout(() => order.push("timer"), 0);
      const due = performance.now() + 5;
      while (performance.now() < due);
    }, 1);
    queue.push(1);
    queue.push(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(["start 1", "timer", "start 2"]);
  });
});
