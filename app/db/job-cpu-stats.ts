// CPU this worker process spent per job type: what one order costs the
// worker, split by what it does (the order's own webhook job: attribution and
// commissions; then events, e-mails, referrals, bonuses…). process.cpuUsage
// counts the whole process, so a type's figure also carries the garbage
// collection its work caused; the worker runs one type at a time (runDue), so
// the split is fair enough to say where the time goes. The orders bench
// prints it per order.

export interface JobCpu {
  jobs: number;
  cpuMs: number;
}

const holder = globalThis as unknown as { __jobCpuStats?: Map<string, JobCpu> };
const stats = (holder.__jobCpuStats ??= new Map<string, JobCpu>());

export async function measureJobCpu<T>(type: string, jobs: number, work: () => Promise<T>): Promise<T> {
  const before = process.cpuUsage();
  try {
    return await work();
  } finally {
    const used = process.cpuUsage(before);
    const entry = stats.get(type) ?? { jobs: 0, cpuMs: 0 };
    entry.jobs += jobs;
    entry.cpuMs += (used.user + used.system) / 1000;
    stats.set(type, entry);
  }
}

export function jobCpuByType(): Record<string, JobCpu> {
  return Object.fromEntries([...stats.entries()].sort(([, a], [, b]) => b.cpuMs - a.cpuMs));
}

/** One log line; the JSON after JOB_CPU= is what the orders bench parses. */
export function jobCpuSummaryLine(): string | null {
  if (stats.size === 0) return null;
  const byType = jobCpuByType();
  const text = Object.entries(byType)
    .map(([type, s]) => `${type} ${s.cpuMs.toFixed(0)} ms (${s.jobs})`)
    .join(", ");
  return `[jobs] worker CPU by job type (jobs): ${text} JOB_CPU=${JSON.stringify(byType)}`;
}
