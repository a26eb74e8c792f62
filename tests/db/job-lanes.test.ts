import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/db.server";
import { JobWorker, type JobRegistry } from "~/db/job-queue.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The intake lane (ADR 054): jobs of an intake type are claimed ahead of
// older jobs of other types, so the e-mails and events a burst of orders
// made never delay the next order's sale; the other types keep a fifth of a
// claim once a second, so a steady stream of orders never starves them.
applyTestEnv();
useTestDatabase();

function registry(ran: string[]): JobRegistry {
  const payload = z.object({ n: z.number() });
  return {
    "test.intake": { payload, lane: "intake", effect: async (p) => void ran.push(`intake ${p.n}`) },
    "test.mail": { payload, effect: async (p) => void ran.push(`mail ${p.n}`) },
  };
}

async function queue(type: string, count: number, secondsAgo: number) {
  const runAt = new Date(Date.now() - secondsAgo * 1000);
  await getDb().job.createMany({
    data: Array.from({ length: count }, (_, n) => ({ type, payload: JSON.stringify({ n }), runAt })),
  });
}

const quiet = { error: () => {}, info: () => {} };

describe("job lanes", () => {
  it("runs newer intake jobs before older jobs of other types, in the same claim", async () => {
    await queue("test.mail", 30, 60);
    await queue("test.intake", 5, 1);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    expect(await worker.runDue()).toBe(10);
    // All five orders first, then the oldest e-mails fill the claim.
    expect(ran.slice(0, 5).sort()).toEqual([0, 1, 2, 3, 4].map((n) => `intake ${n}`));
    expect(ran.slice(5).every((r) => r.startsWith("mail"))).toBe(true);
    expect(await getDb().job.count({ where: { type: "test.intake", status: "done" } })).toBe(5);
  });

  it("leaves other types a fifth of a claim once a second while intake jobs fill every claim", async () => {
    await queue("test.mail", 30, 60);
    await queue("test.intake", 100, 1);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    const counts = () => ({
      intake: ran.filter((r) => r.startsWith("intake")).length,
      mail: ran.filter((r) => r.startsWith("mail")).length,
    });
    const start = Date.now();
    await worker.runDue(new Date(start));
    expect(counts()).toEqual({ intake: 8, mail: 2 });
    // Within the second: the whole claim is intake.
    await worker.runDue(new Date(start + 300));
    await worker.runDue(new Date(start + 900));
    expect(counts()).toEqual({ intake: 28, mail: 2 });
    // A second later, the mail has its fifth again.
    await worker.runDue(new Date(start + 1000));
    expect(counts()).toEqual({ intake: 36, mail: 4 });
  });

  it("fills a claim with other types whenever the intake jobs do not", async () => {
    await queue("test.mail", 30, 60);
    await queue("test.intake", 3, 1);
    const ran: string[] = [];
    const worker = new JobWorker(registry(ran), { batchSize: 10, logger: quiet });
    const start = Date.now();
    await worker.runDue(new Date(start));
    await worker.runDue(new Date(start + 100));
    expect(ran.filter((r) => r.startsWith("intake"))).toHaveLength(3);
    expect(ran.filter((r) => r.startsWith("mail"))).toHaveLength(17);
  });

  // A type that sizes its jobs (an event.dispatch of a bulk write's events):
  // each "item" here takes `ms` of the worker's time.
  function sizedRegistry(ran: string[], ms = 0): JobRegistry {
    const payload = z.object({ n: z.number() });
    const items = z.object({ n: z.number(), items: z.number() });
    return {
      ...registry(ran),
      "test.events": {
        payload: items,
        run: async () => {},
        batch: {
          canBatch: () => true,
          size: (p: z.output<typeof items>) => p.items,
          plan: async (payloads: z.output<typeof items>[]) => {
            for (const p of payloads) ran.push(`events ${p.n}`);
            await new Promise((r) => setTimeout(r, ms * payloads.reduce((n, p) => n + p.items, 0)));
            return async () => {};
          },
        },
      },
      "test.other": { payload, effect: async () => {} },
    };
  }

  async function queueSized(count: number, items: number, secondsAgo: number) {
    const runAt = new Date(Date.now() - secondsAgo * 1000);
    await getDb().job.createMany({
      data: Array.from({ length: count }, (_, n) => ({
        type: "test.events",
        payload: JSON.stringify({ n, items }),
        runAt: new Date(runAt.getTime() + n),
      })),
    });
  }

  it("counts a claim in items: jobs past it go back to the queue, their attempt not counted", async () => {
    await queueSized(4, 6, 60);
    const ran: string[] = [];
    const worker = new JobWorker(sizedRegistry(ran), { batchSize: 10, logger: quiet });
    // The first job always runs, even when it is larger than what is left.
    expect(await worker.runDue()).toBe(1);
    expect(ran).toEqual(["events 0"]);
    const left = await getDb().job.findMany({
      where: { status: { not: "done" } },
      select: { status: true, attempts: true },
    });
    expect(left).toEqual([0, 1, 2].map(() => ({ status: "queued", attempts: 0 })));
    expect(await worker.runDue()).toBe(1);
    expect(ran).toEqual(["events 0", "events 1"]);
  });

  it("waits, while intake jobs fill the claims, until the other types' last share is a tenth of the time", async () => {
    await queueSized(3, 10, 60);
    await queue("test.intake", 100, 1);
    const ran: string[] = [];
    // Ten items at 30 ms: a share of 300 ms, so the next one comes 2.7 s later.
    const worker = new JobWorker(sizedRegistry(ran, 30), { batchSize: 10, logger: quiet });
    const events = () => ran.filter((r) => r.startsWith("events")).length;
    const start = Date.now();
    await worker.runDue(new Date(start));
    expect(events()).toBe(1);
    await worker.runDue(new Date(start + 1000));
    await worker.runDue(new Date(start + 2000));
    expect(events()).toBe(1);
    // (Four seconds on: the share may have run past 300 ms on a busy machine.)
    await worker.runDue(new Date(start + 4000));
    expect(events()).toBe(2);
  });
});
