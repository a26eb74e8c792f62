// How long this process held SQLite's write lock, per job type (or "request"
// outside any job): the longest hold and how many there were. A hold is a
// write transaction from BEGIN IMMEDIATE to its COMMIT or ROLLBACK, or one
// writing statement outside a transaction. Every other writer of the file
// (the web process's requests, clicks, incoming webhooks) waits that long at
// most, so the load bench prints the table and holds it to a bound.
// Each hold also records the process's CPU time over the same span: a hold
// whose wall time is long but whose CPU time is short was waiting (the OS
// ran something else, or a checkpoint's fsync), not working. And for the
// holds of 50 ms or more, how much of them was a garbage collection pause of
// this thread: V8 reports each pause after the fact (a "gc" performance
// entry, delivered once the event loop turns), so the long holds are kept
// with their span for a while and a pause is added to those it overlaps.

import { PerformanceObserver } from "node:perf_hooks";

export interface HoldStats {
  count: number;
  maxMs: number;
  totalMs: number;
  /** Holds of 50 ms or more (the bench's bound). */
  over50: number;
  /** The process's CPU time (user + system) during the longest hold, in ms. */
  cpuOfLongestMs: number;
  /** The most CPU time any one hold took, in ms. */
  maxCpuMs: number;
  /** Holds that took 50 ms of CPU or more. */
  over50Cpu: number;
  /**
   * Holds during which the event loop ran other work (a request, a timer):
   * the hold awaited something that was not the database, and the process's
   * CPU time then counts that other work too.
   */
  yielded: number;
  /** The wall time of the holds of 50 ms or more, in ms. */
  over50Ms: number;
  /** How much of that was this thread's garbage collection pauses, in ms. */
  gcInOver50Ms: number;
}

interface LongHold {
  kind: string;
  from: number;
  to: number;
}

// Shared through globalThis: the built server and the worker's modules may be
// two copies of this file in one process.
const holder = globalThis as unknown as {
  __writeLockStats?: Map<string, HoldStats>;
  __writeLockLongHolds?: LongHold[];
  __writeLockGcObserver?: PerformanceObserver;
  __writeLockNow?: { open: number; renders: number };
  __writeLockExplain?: { to: ((line: string) => void) | null };
};
const stats = (holder.__writeLockStats ??= new Map<string, HoldStats>());
const longHolds = (holder.__writeLockLongHolds ??= []);
/** Holds this process has open right now, and the template renders started during one. */
const now = (holder.__writeLockNow ??= { open: 0, renders: 0 });
const explain = (holder.__writeLockExplain ??= { to: null });
/** A hold this long is explained in the log, where a worker asks for it (the load bench holds every type under 50 ms). */
export const LONG_HOLD_MS = 50;

const TABLE = '(?:[`"]main[`"]\\.)?[`"](\\w+)[`"]';
const WRITTEN = new RegExp(String.raw`^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+${TABLE}`, "i");
const READ = new RegExp(String.raw`\bFROM\s+${TABLE}`, "i");

// The SQL texts are few (one per statement shape): each is read once.
const labels = new Map<string, string>();

/** "INSERT Commission", "SELECT Order", "COMMIT": what a statement does to which table (ours or Prisma's SQL). */
export function statementLabel(sql: string) {
  let label = labels.get(sql);
  if (label === undefined) {
    const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "";
    const table = (verb === "SELECT" ? READ : WRITTEN).exec(sql)?.[1];
    label = table ? `${verb} ${table}` : sql.trim().slice(0, 30);
    if (labels.size < 1000) labels.set(sql, label);
  }
  return label;
}

/** Where long holds are explained (a job worker of its own: job-queue.server.ts); null: nowhere. */
export function explainLongHoldsTo(write: ((line: string) => void) | null) {
  explain.to = write;
}

/** Whether long holds are explained here: only then is a transaction's statement time worth keeping. */
export function explainingLongHolds() {
  return explain.to !== null;
}

/**
 * A hold of LONG_HOLD_MS or more, explained: how long each kind of
 * statement took in it, the commit, and the rest ("between": work between
 * statements, or no core to run on).
 */
export function explainLongHold(
  kind: string,
  heldMs: number,
  what: string,
  times: [string, number][],
  commitMs?: number,
) {
  if (!explain.to || heldMs < LONG_HOLD_MS) return;
  // A Prisma transaction's COMMIT is one of its statements; a batch's is timed apart.
  const all: [string, number][] = commitMs === undefined ? times : [...times, ["COMMIT", commitMs]];
  const statements = all.reduce((sum, [, ms]) => sum + ms, 0);
  const shown = [...all].sort((a, b) => b[1] - a[1]).slice(0, 7);
  const parts = [...shown, ["between", heldMs - statements] as const];
  explain.to(
    `[db] long write-lock hold: ${kind} ${heldMs.toFixed(1)} ms for ${what} (${parts.map(([label, ms]) => `${label} ${ms.toFixed(1)}`).join(", ")})`,
  );
}

/** Long holds kept for the pauses reported after them (a pause is reported within a loop turn). */
const LONG_HOLDS_KEPT = 64;

function watchGcPauses() {
  if (holder.__writeLockGcObserver) return;
  const observer = new PerformanceObserver((list) => {
    for (const pause of list.getEntries()) {
      const from = pause.startTime;
      const to = pause.startTime + pause.duration;
      for (const hold of longHolds) {
        const overlap = Math.min(to, hold.to) - Math.max(from, hold.from);
        const entry = overlap > 0 ? stats.get(hold.kind) : undefined;
        if (entry) entry.gcInOver50Ms += overlap;
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  holder.__writeLockGcObserver = observer;
}

/** Where a hold starts: pass it back to recordWriteLockHold when it ends. */
export function holdStart() {
  watchGcPauses();
  now.open++;
  const start = { at: performance.now(), cpu: process.cpuUsage(), turned: false, open: true };
  // Runs only if the event loop turns before the hold ends.
  setImmediate(() => (start.turned = true));
  return start;
}

export type HoldStart = ReturnType<typeof holdStart>;

/** Ends a hold without recording it (its statement failed, the lock was not taken); recording ends it too. */
export function dropHold(start: HoldStart) {
  if (!start.open) return;
  start.open = false;
  now.open--;
}

/**
 * A Liquid render starts (template-threads.server.ts): counted if this
 * process holds SQLite's write lock at that moment, which every other writer
 * would wait out. Renders belong before the write transaction (ADR 035); the
 * db tests hold the count to zero (tests/support/render-guard.ts).
 */
export function noteRender() {
  if (now.open > 0) now.renders++;
}

/** Renders started while this process held the write lock, since the last reset. */
export function rendersUnderWriteLock(options: { reset?: boolean } = {}): number {
  const count = now.renders;
  if (options.reset) now.renders = 0;
  return count;
}

/** Records one hold from its start; returns its wall time in ms. */
export function recordWriteLockHold(kind: string, start: HoldStart) {
  dropHold(start);
  const ms = performance.now() - start.at;
  const used = process.cpuUsage(start.cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const entry = stats.get(kind);
  const over = ms >= 50 ? 1 : 0;
  const overCpu = cpuMs >= 50 ? 1 : 0;
  const yielded = start.turned ? 1 : 0;
  if (over) {
    longHolds.push({ kind, from: start.at, to: start.at + ms });
    if (longHolds.length > LONG_HOLDS_KEPT) longHolds.shift();
  }
  if (!entry)
    stats.set(kind, {
      count: 1,
      maxMs: ms,
      totalMs: ms,
      over50: over,
      cpuOfLongestMs: cpuMs,
      maxCpuMs: cpuMs,
      over50Cpu: overCpu,
      yielded,
      over50Ms: over ? ms : 0,
      gcInOver50Ms: 0,
    });
  else {
    entry.count++;
    entry.totalMs += ms;
    entry.over50 += over;
    entry.over50Cpu += overCpu;
    entry.yielded += yielded;
    if (over) entry.over50Ms += ms;
    if (ms > entry.maxMs) {
      entry.maxMs = ms;
      entry.cpuOfLongestMs = cpuMs;
    }
    if (cpuMs > entry.maxCpuMs) entry.maxCpuMs = cpuMs;
  }
  return ms;
}

export function writeLockHolds(): Record<string, HoldStats> {
  return Object.fromEntries([...stats.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * One log line: `[db] write lock held (longest, ms): webhook 3.1 (412), ...`.
 * The load bench reads it from the worker's output; the JSON after the
 * marker is what it parses.
 */
export function writeLockSummaryLine(): string | null {
  if (stats.size === 0) return null;
  const holds = writeLockHolds();
  const text = Object.entries(holds)
    .map(
      ([kind, s]) =>
        `${kind} ${s.maxMs.toFixed(1)} (${s.count}, mean ${(s.totalMs / s.count).toFixed(1)}, cpu ${s.cpuOfLongestMs.toFixed(1)}, yielded ${s.yielded})`,
    )
    .join(", ");
  return `[db] write lock held, longest in ms (holds, mean ms, cpu ms of the longest, holds that yielded): ${text} WRITE_LOCK_HOLDS=${JSON.stringify(holds)}`;
}
