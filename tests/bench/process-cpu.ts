import { readFileSync } from "node:fs";

// CPU time used so far by a child process (user + system), in ms, from
// /proc (Linux). On a machine shared with other work, requests/s and
// latencies swing with the load; the CPU a server spends per request moves
// much less, so the benchmarks print it beside them. Null elsewhere.
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
