import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dbProvider, getDb } from "~/db.server";
import { drainJobs as drainRegistry, type JobRegistry } from "~/db/job-queue.server";
import { FIRST_SLICE } from "~/db/write-slice";
import { drainJobs } from "~/worker/job-registry.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The job worker parses each stored payload with its job type's schema before
// the handler runs. A payload that does not parse fails its job once, with a
// message that names the field, and is not retried (it would not parse on a
// retry either).
applyTestEnv();
useTestDatabase();

function quietLogger() {
  const lines: string[] = [];
  return { lines, logger: { error: (...args: unknown[]) => lines.push(args.join(" ")), info: () => {} } };
}

describe("job payloads", () => {
  it.each([
    ["email.send", JSON.stringify({ emailId: "e1" }), /invalid payload for job type email\.send: id: Required/],
    ["orders.approve", JSON.stringify({ orderId: 12 }), /orderId: Expected string, received number/],
    ["dashboard.rollup", "{not json", /invalid payload for job type dashboard\.rollup: payload: not JSON/],
  ])("a bad %s payload fails the job once, with the reason, and no retry", async (type, payload, message) => {
    const job = await getDb().job.create({ data: { type, payload } });
    const { lines, logger } = quietLogger();
    expect(await drainJobs({ logger })).toBe(1);
    const after = await getDb().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(after.status).toBe("failed");
    expect(after.attempts).toBe(1);
    expect(after.lastError).toMatch(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/not processed/);
    // Nothing is left to run: no retry storm.
    expect(await drainJobs({ logger })).toBe(0);
  });

  it("keeps a bad payload out of a batch: the good jobs of the batch still run together", async () => {
    const db = getDb();
    // Webhook jobs for orders are batched; these events are gone, so each
    // good job is simply done.
    const good = await Promise.all(
      [1, 2, 3].map((n) =>
        db.job.create({
          data: { type: "webhook", payload: JSON.stringify({ eventId: `gone-${n}`, topic: "orders/create" }) },
        }),
      ),
    );
    const bad = await db.job.create({ data: { type: "webhook", payload: JSON.stringify({ topic: "orders/create" }) } });
    const { lines, logger } = quietLogger();
    expect(await drainJobs({ logger })).toBe(4);
    for (const job of good) expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("done");
    const failed = await db.job.findUniqueOrThrow({ where: { id: bad.id } });
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toMatch(/invalid payload for job type webhook: eventId: Required/);
    // The batch itself did not fail (that would log "running them one by one").
    expect(lines.filter((l) => /one by one/.test(l))).toEqual([]);
  });

  it("slices a batch by its jobs' sizes: a job larger than a slice is written alone", async () => {
    // An event.dispatch job may carry a bulk write's events: counted as one
    // job, sixteen of them would make one write-lock hold of a thousand events.
    const slices: number[][] = [];
    const sized = z.object({ n: z.number() });
    const registry = {
      sized: {
        payload: sized,
        run: async () => {},
        batch: {
          canBatch: () => true,
          size: (p: z.output<typeof sized>) => p.n,
          plan: async (payloads: z.output<typeof sized>[]) => {
            slices.push(payloads.map((p) => p.n));
            return async () => {};
          },
        },
      },
    } satisfies JobRegistry;
    const start = Date.now() - 60_000;
    for (const [i, n] of [3, 3, 1, 1, 5].entries())
      await getDb().job.create({ data: { type: "sized", payload: JSON.stringify({ n }), runAt: new Date(start + i) } });
    expect(await drainRegistry(registry, { writeBatch: 4 })).toBe(5);
    expect(slices).toEqual([[3], [3, 1], [1], [5]]);
  });

  it("learns slices on SQLite only: its first slice is small, PostgreSQL writes a whole writeBatch together", async () => {
    const slices: number[] = [];
    const registry = {
      unit: {
        payload: z.object({}),
        run: async () => {},
        batch: {
          canBatch: () => true,
          plan: async (payloads: object[]) => {
            slices.push(payloads.length);
            return async () => {};
          },
        },
      },
    } satisfies JobRegistry;
    const start = Date.now() - 60_000;
    for (let i = 0; i < 10; i++)
      await getDb().job.create({ data: { type: "unit", payload: "{}", runAt: new Date(start + i) } });
    expect(await drainRegistry(registry, { writeBatch: 10 })).toBe(10);
    if (dbProvider() === "sqlite") expect(slices[0]).toBe(FIRST_SLICE);
    else expect(slices).toEqual([10]);
    expect(slices.reduce((n, s) => n + s, 0)).toBe(10);
  });

  it("fails a job of an unknown type with a clear message", async () => {
    const job = await getDb().job.create({ data: { type: "no.such.job", payload: "{}", maxAttempts: 1 } });
    const { logger } = quietLogger();
    await drainJobs({ logger });
    const after = await getDb().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(after.status).toBe("failed");
    expect(after.lastError).toMatch(/no handler for job type no\.such\.job/);
  });
});
