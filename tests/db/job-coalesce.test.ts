import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/db.server";
import { JobWorker, type JobRegistry } from "~/db/job-queue.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// Coalescing job types (a check that judges the current state): claimed jobs
// with the same key run once, as the newest of them; the others are done
// without running. A burst of orders queued one leak check per webhook slice,
// each reading the affiliate's whole window (ADR 051, ADR 064).
applyTestEnv();
useTestDatabase();

const quiet = { error: () => {}, info: () => {} };

function registry(ran: string[]): JobRegistry {
  const payload = z.object({ key: z.string(), n: z.number() });
  return {
    "test.check": {
      payload,
      coalesce: (p: { key: string }) => p.key,
      run: async (p) => void ran.push(`${p.key}${p.n}`),
    },
    "test.plain": { payload, run: async (p) => void ran.push(`plain ${p.key}${p.n}`) },
  };
}

async function queue(type: string, jobs: { key: string; n: number }[], runAt = new Date()) {
  const db = getDb();
  // createdAt one millisecond apart: "newest" is well defined.
  const base = Date.now() - 60_000;
  for (const [i, p] of jobs.entries())
    await db.job.create({ data: { type, payload: JSON.stringify(p), createdAt: new Date(base + i), runAt } });
}

describe("coalescing job types", () => {
  it("runs the newest job of each key in a claim and marks the others done", async () => {
    await queue("test.check", [
      { key: "a", n: 1 },
      { key: "b", n: 1 },
      { key: "a", n: 2 },
      { key: "a", n: 3 },
      { key: "b", n: 2 },
    ]);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    expect(await worker.runDue()).toBe(5);
    await worker.stop();
    expect(ran.sort()).toEqual(["a3", "b2"]);
    const states = await getDb().job.groupBy({ by: ["status"], _count: true });
    expect(states).toEqual([{ status: "done", _count: 5 }]);
  });

  it("leaves types without a key alone, and a job claimed later runs again", async () => {
    await queue("test.plain", [
      { key: "a", n: 1 },
      { key: "a", n: 2 },
    ]);
    await queue("test.check", [{ key: "a", n: 1 }]);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    await worker.runDue();
    // Queued after the first claim ran: judged again.
    await queue("test.check", [{ key: "a", n: 2 }]);
    await worker.runDue();
    await worker.stop();
    expect(ran.sort()).toEqual(["a1", "a2", "plain a1", "plain a2"]);
  });

  it("leaves a claimed job's key to a queued job of it that will run soon, not to a retry far off", async () => {
    const soon = new Date(Date.now() + 30_000);
    const farOff = new Date(Date.now() + 3_600_000);
    await queue("test.check", [{ key: "a", n: 1 }]);
    await queue("test.check", [{ key: "a", n: 2 }], soon);
    await queue("test.check", [{ key: "b", n: 1 }]);
    await queue("test.check", [{ key: "b", n: 2 }], farOff);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    expect(await worker.runDue()).toBe(2);
    await worker.stop();
    // a1 is covered by a2 (queued, due within a minute); b1 runs: b2 is a retry an hour off.
    expect(ran).toEqual(["b1"]);
    const left = await getDb().job.findMany({ where: { status: "queued" }, select: { payload: true } });
    expect(left.map((j) => j.payload).sort()).toEqual([
      JSON.stringify({ key: "a", n: 2 }),
      JSON.stringify({ key: "b", n: 2 }),
    ]);
  });
});
