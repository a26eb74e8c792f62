import { describe, expect, it } from "vitest";
import { createTurnQueue } from "./turn-queue";

/** Counts the turns of the event loop: set before the pushes, it runs first in each turn's check phase. */
function countTurns() {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (ticking = false) };
}

describe("the turn queue", () => {
  it("starts at most perTurn requests per turn of the event loop, in the order they came", async () => {
    const turns = countTurns();
    const started: [turn: number, n: number][] = [];
    const queue = createTurnQueue((n: number) => started.push([turns.now(), n]), 3);
    for (let n = 1; n <= 8; n++) queue.push(n);
    // Nothing starts before the current callback has ended.
    expect(started).toEqual([]);
    while (started.length < 8) await new Promise((resolve) => setTimeout(resolve, 1));
    turns.stop();
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

  it("counts each request at its cost: a turn of 1 starts 4 of cost ¼, then a whole request alone", async () => {
    const turns = countTurns();
    const started: [turn: number, name: string][] = [];
    const queue = createTurnQueue(
      (name: string) => started.push([turns.now(), name]),
      1,
      (name) => (name.startsWith("click") ? 0.25 : 1),
    );
    for (const name of ["click 1", "click 2", "click 3", "click 4", "click 5", "page 1", "page 2", "click 6"])
      queue.push(name);
    while (started.length < 8) await new Promise((resolve) => setTimeout(resolve, 1));
    turns.stop();
    const first = started[0]![0];
    expect(started.map(([t, name]) => [t - first, name])).toEqual([
      [0, "click 1"],
      [0, "click 2"],
      [0, "click 3"],
      [0, "click 4"],
      [1, "click 5"],
      // A request costing more than what is left still starts; the budget is spent after it.
      [1, "page 1"],
      [2, "page 2"],
      [3, "click 6"],
    ]);
  });
});
