// Summarises a Chromium timeline trace of one interaction (the vitals bench's
// BENCH_VITALS_TRACE=1): the renderer main thread's tasks over 5 ms, and in
// each the time spent in style, layout, paint and script, with how many
// elements the style pass touched and how many layout objects were dirty, so
// a slow interaction says whether it pays for its own DOM or for the page's.
// Usage: npx tsx tests/bench/trace-summary.ts <file.trace.json>
import { readFileSync } from "node:fs";

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; beginData?: Record<string, unknown> };
};

const PARTS = [
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "HitTest",
  "FunctionCall",
  "EventDispatch",
];

/** The complete events of the renderer's main thread, B/E pairs joined. */
function mainThreadEvents(events: TraceEvent[]): TraceEvent[] {
  const main = events.find((e) => e.name === "thread_name" && (e.args as { name?: string })?.name === "CrRendererMain");
  if (!main) return [];
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const open = new Map<string, TraceEvent[]>();
  const out: TraceEvent[] = [];
  for (const e of own) {
    if (e.ph === "X") out.push(e);
    else if (e.ph === "B") open.set(e.name, [...(open.get(e.name) ?? []), e]);
    else if (e.ph === "E") {
      const begin = open.get(e.name)?.pop();
      if (begin) out.push({ ...begin, ph: "X", dur: e.ts - begin.ts, args: { ...begin.args, ...e.args } });
    }
  }
  return out.sort((a, b) => a.ts - b.ts);
}

function describe(e: TraceEvent): string {
  if (e.name === "UpdateLayoutTree") return `${e.args?.elementCount ?? "?"} elements`;
  if (e.name === "Layout") {
    const b = e.args?.beginData as { dirtyObjects?: number; totalObjects?: number } | undefined;
    return `${b?.dirtyObjects ?? "?"}/${b?.totalObjects ?? "?"} objects`;
  }
  return "";
}

function main() {
  const file = process.argv[2];
  if (!file) throw new Error("usage: trace-summary <file.trace.json>");
  const raw = JSON.parse(readFileSync(file, "utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = mainThreadEvents(Array.isArray(raw) ? raw : (raw.traceEvents ?? []));
  const tasks = events.filter((e) => e.name === "RunTask" && (e.dur ?? 0) >= 5000);
  const t0 = tasks[0]?.ts ?? 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    console.log(`task at ${((task.ts - t0) / 1000).toFixed(1)} ms: ${((task.dur ?? 0) / 1000).toFixed(1)} ms`);
    const inside = events.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    for (const name of PARTS) {
      const hits = inside.filter((e) => e.name === name);
      if (!hits.length) continue;
      const ms = hits.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
      const detail = hits
        .filter((e) => (e.dur ?? 0) >= 1000)
        .map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)} ms ${describe(e)}`.trim())
        .join("; ");
      console.log(
        `  ${name.padEnd(18)} ${String(hits.length).padStart(3)}× ${ms.toFixed(1).padStart(6)} ms  ${detail}`,
      );
    }
  }
}

if (process.argv[1]?.endsWith("trace-summary.ts")) main();
