import type { HoldStats } from "../../app/db/write-lock-stats";

// The job worker logs its write-lock holds per job type when it stops
// (WRITE_LOCK_HOLDS=...); the load and orders benches read them from its output.

/** The holds per job type in these log lines, merged over every worker that logged them. */
export function lockHoldsIn(lines: Iterable<string>) {
  const holds: Record<string, HoldStats> = {};
  for (const line of lines) {
    const json = /WRITE_LOCK_HOLDS=(\{.*\})\s*$/.exec(line)?.[1];
    if (!json) continue;
    for (const [kind, s] of Object.entries(JSON.parse(json) as Record<string, HoldStats>)) {
      const seen = holds[kind];
      const longer = !seen || s.maxMs > seen.maxMs;
      holds[kind] = {
        count: (seen?.count ?? 0) + s.count,
        maxMs: longer ? s.maxMs : seen.maxMs,
        cpuOfLongestMs: longer ? s.cpuOfLongestMs : seen.cpuOfLongestMs,
        totalMs: (seen?.totalMs ?? 0) + s.totalMs,
        over50: (seen?.over50 ?? 0) + s.over50,
        maxCpuMs: Math.max(seen?.maxCpuMs ?? 0, s.maxCpuMs),
        over50Ms: (seen?.over50Ms ?? 0) + (s.over50Ms ?? 0),
        gcInOver50Ms: (seen?.gcInOver50Ms ?? 0) + (s.gcInOver50Ms ?? 0),
        over50Cpu: (seen?.over50Cpu ?? 0) + s.over50Cpu,
        yielded: (seen?.yielded ?? 0) + s.yielded,
      };
    }
  }
  return holds;
}
