import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { isDatabaseBusy } from "~/db/client.server";
import { inJob, inRequest } from "~/db/db-context";
import { explainLongHoldsTo } from "~/db/write-lock-stats";
import { sqliteBulk } from "~/db/bulk-sql.server";
import { jobWriteWaitMs, lockContended } from "~/db/sqlite-adapter.server";
import { JobWorker, type JobRegistry } from "~/db/job-queue.server";
import { z } from "zod";
import { buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// SQLite's one write lock, as the web process meets it (ADR 035): the job
// worker (another connection, here a plain better-sqlite3 one) holds it for a
// while, and the app's own writes must neither fail nor stall the event loop.
// Each of these failed on the old client: Prisma's adapter began transactions
// deferred (a read, another writer's commit, then a write failed at once with
// "database is locked"), waited for the lock inside SQLite (the busy timeout
// sleeps on the event loop), and ran a concurrent statement inside another
// request's open transaction.
applyTestEnv({ DATABASE_WAIT_MS: "1500" });
const database = useTestDatabase();
const onPostgres = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "file:x").provider === "postgresql";

function otherWriter() {
  const target = parseDatabaseUrl(database.current().url);
  if (target.provider !== "sqlite") throw new Error("SQLite only");
  return new Database(target.file, { timeout: 5000 });
}

/** Runs a write on another connection as soon as the lock is free, without blocking this event loop. */
async function writeWhenFree(sql: string) {
  const target = parseDatabaseUrl(database.current().url);
  if (target.provider !== "sqlite") throw new Error("SQLite only");
  const other = new Database(target.file, { timeout: 0 });
  try {
    for (;;) {
      try {
        other.exec(sql);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  } finally {
    other.close();
  }
}

/** Holds the write lock from another connection for `ms`, as a worker's transaction would. */
function holdLock(ms: number) {
  const other = otherWriter();
  other.exec("BEGIN IMMEDIATE");
  return new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec("COMMIT");
      other.close();
      resolve();
    }, ms),
  );
}

/** The longest gap between ticks of a 5 ms timer while `work` runs: how long the event loop was blocked. */
async function longestStall(work: () => Promise<unknown>) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe.skipIf(onPostgres)("SQLite's write lock in the web process", () => {
  it("lets a transaction that read first write, whatever another connection commits meanwhile", async () => {
    const db = getDb();
    const shop = await buildShop();
    let worker: Promise<void> | undefined;
    await db.$transaction(async (tx) => {
      await tx.shop.findUniqueOrThrow({ where: { id: shop.id } });
      // The job worker writes between this transaction's read and its write
      // (trying on a timer, as it would from its own process).
      worker = writeWhenFree(`UPDATE "Shop" SET "name" = 'by the worker' WHERE "id" = '${shop.id}'`);
      await new Promise((r) => setTimeout(r, 30));
      await tx.shop.update({ where: { id: shop.id }, data: { adminEmail: "after@shop.example" } });
    });
    await worker;
    const row = await db.shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect([row.name, row.adminEmail]).toEqual(["by the worker", "after@shop.example"]);
  });

  it("waits for the lock without blocking the event loop, then writes", async () => {
    const db = getDb();
    const shop = await buildShop();
    const held = holdLock(400);
    const stall = await longestStall(async () => {
      await db.shop.update({ where: { id: shop.id }, data: { name: "written after the wait" } });
      await db.$transaction((tx) =>
        tx.shop.update({ where: { id: shop.id }, data: { adminEmail: "tx@shop.example" } }),
      );
    });
    await held;
    expect(stall).toBeLessThan(150);
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).name).toBe("written after the wait");
  });

  it("keeps a concurrent request's write out of another request's transaction", async () => {
    const db = getDb();
    const shop = await buildShop();
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    const failing = db
      .$transaction(async (tx) => {
        await tx.shop.update({ where: { id: shop.id }, data: { name: "rolled back" } });
        await paused;
        throw new Error("the first request fails");
      })
      .catch((error: Error) => error.message);
    // Give the transaction time to start and write.
    await new Promise((r) => setTimeout(r, 50));
    const other = db.shop.update({ where: { id: shop.id }, data: { adminEmail: "kept@shop.example" } });
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await failing).toBe("the first request fails");
    await other;
    const row = await db.shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row.adminEmail).toBe("kept@shop.example");
    expect(row.name).not.toBe("rolled back");
  });

  it("gives up after DATABASE_WAIT_MS with an error the door answers 503", async () => {
    const db = getDb();
    const shop = await buildShop();
    const held = holdLock(2500);
    const error = await db.shop.update({ where: { id: shop.id }, data: { name: "never" } }).catch((e: unknown) => e);
    await held;
    expect(isDatabaseBusy(error)).toBe(true);
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).name).not.toBe("never");
  });

  it("lets a GET's transaction read while another connection holds the lock, without taking it", async () => {
    const db = getDb();
    const shop = await buildShop();
    const held = holdLock(600);
    const started = performance.now();
    // Prisma starts transactions of its own for reads (a batch of queries of
    // one tick, a plan that loads relations); the array form takes the same path.
    const [found, count] = await inRequest("GET", "/admin/somewhere", () =>
      db.$transaction([db.shop.findUnique({ where: { id: shop.id } }), db.shop.count({ where: { id: shop.id } })]),
    );
    const took = performance.now() - started;
    await held;
    expect(found?.id).toBe(shop.id);
    expect(count).toBe(1);
    // A read never waits for the writer (WAL): with BEGIN IMMEDIATE it waited the 600 ms out.
    expect(took).toBeLessThan(300);
  });

  it("lets a job's plan step read in a transaction while another connection holds the lock", async () => {
    const db = getDb();
    const shop = await buildShop();
    let planTook = -1;
    const registry: JobRegistry = {
      "test.plan-reads": {
        payload: z.object({ shopId: z.string() }),
        plan: async (payload, reader) => {
          const held = holdLock(600);
          const started = performance.now();
          await reader.$transaction([
            reader.shop.findUnique({ where: { id: payload.shopId } }),
            reader.shop.count({ where: { id: payload.shopId } }),
          ]);
          planTook = performance.now() - started;
          await held;
          return async (tx) =>
            void (await tx.shop.update({ where: { id: payload.shopId }, data: { name: "planned" } }));
        },
      },
    };
    await db.job.create({ data: { type: "test.plan-reads", payload: JSON.stringify({ shopId: shop.id }) } });
    expect(await new JobWorker(registry, { logger: { error: () => {}, info: () => {} } }).runDue()).toBe(1);
    // Its reads never waited for the lock; its write, after the plan, was made.
    expect(planTook).toBeGreaterThanOrEqual(0);
    expect(planTook).toBeLessThan(300);
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).name).toBe("planned");
  });

  it("still gives a POST's transaction the write lock at its start", async () => {
    const db = getDb();
    const shop = await buildShop();
    const held = holdLock(400);
    const started = performance.now();
    await inRequest("POST", "/admin/somewhere", () =>
      db.$transaction(async (tx) => {
        await tx.shop.findUnique({ where: { id: shop.id } });
        await tx.shop.update({ where: { id: shop.id }, data: { name: "after the lock" } });
      }),
    );
    await held;
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).name).toBe("after the lock");
  });

  it("paces a job's writes by their holds only while another writer waits on the lock", async () => {
    const shop = await buildShop();
    const slowWrite = (name: string) =>
      inJob("test.pacing", () =>
        getDb().$transaction(async (tx) => {
          await tx.shop.update({ where: { id: shop.id }, data: { name } });
          for (const until = performance.now() + 30; performance.now() < until;);
        }),
      );
    // Past the window of any earlier test's contention.
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Nobody else writes: a 30 ms hold is followed by the short gap only
    // (the worker used to sleep as long as each hold, a third of its time in
    // a burst of orders).
    await slowWrite("alone");
    expect(lockContended()).toBe(false);
    expect(jobWriteWaitMs()).toBeLessThanOrEqual(2);
    // Another connection holds the lock when the job begins: others wait on
    // the lock, so the next write waits as long as this one held it.
    const held = holdLock(40);
    await slowWrite("behind another writer");
    await held;
    expect(lockContended()).toBe(true);
    expect(jobWriteWaitMs()).toBeGreaterThan(20);
  });

  it("refuses a write during a GET request in tests (a GET never writes)", async () => {
    const db = getDb();
    const shop = await buildShop();
    await expect(
      // Awaited inside the request, as a loader does (Prisma's queries start when awaited).
      inRequest(
        "GET",
        "/admin/somewhere",
        async () => await db.shop.update({ where: { id: shop.id }, data: { name: "x" } }),
      ),
    ).rejects.toThrow(/GET request wrote/);
    await inRequest(
      "POST",
      "/admin/somewhere",
      async () => await db.shop.update({ where: { id: shop.id }, data: { name: "y" } }),
    );
    expect((await db.shop.findUniqueOrThrow({ where: { id: shop.id } })).name).toBe("y");
  });
});

describe.skipIf(onPostgres)("a long write-lock hold, explained", () => {
  it("times the worker's statements inside a transaction only, per statement kind and table", async () => {
    const shop = await buildShop();
    const connection = otherWriter();
    try {
      const bulk = sqliteBulk(connection);
      await bulk.updateIn("Shop", { name: "outside" }, {}, "id", [shop.id]);
      expect(bulk.takeStatementTimes()).toEqual([]);
      connection.exec("BEGIN IMMEDIATE");
      await bulk.updateIn("Shop", { name: "inside" }, {}, "id", [shop.id]);
      await bulk.from("Shop").findIn<{ id: string }>(["id"], {}, "id", [shop.id]);
      await bulk.insertRows("RateLimiterFlexible", [{ key: `k-${shop.id}`, points: 1, expire: null }]);
      connection.exec("COMMIT");
      const times = bulk.takeStatementTimes();
      expect(times.map(([label]) => label).sort()).toEqual([
        "INSERT RateLimiterFlexible",
        "SELECT Shop",
        "UPDATE Shop",
      ]);
      expect(times.every(([, ms]) => ms >= 0)).toBe(true);
      expect(bulk.takeStatementTimes()).toEqual([]);
    } finally {
      connection.close();
    }
  });

  it("logs what a batch's hold of 50 ms or more was made of", async () => {
    const lines: string[] = [];
    const quiet = { error: () => {}, info: () => {} };
    const registry: JobRegistry = {
      "test.slow-write": {
        payload: z.object({ n: z.number() }),
        run: async () => {},
        batch: {
          canBatch: () => true,
          plan: async () => async (writer) => {
            await writer.updateIn("Job", { lastError: null }, {}, "id", ["none"]);
            // Work between statements, as a busy batch would do.
            for (const until = performance.now() + 70; performance.now() < until;);
          },
        },
      },
    };
    await getDb().job.createMany({
      data: [1, 2].map((n) => ({ type: "test.slow-write", payload: JSON.stringify({ n }) })),
    });
    const worker = new JobWorker(registry, { logger: quiet });
    explainLongHoldsTo((line) => lines.push(line));
    try {
      expect(await worker.runDue()).toBe(2);
    } finally {
      explainLongHoldsTo(null);
    }
    const line = lines.find((l) => l.startsWith("[db] long write-lock hold"));
    expect(line).toMatch(/^\[db\] long write-lock hold: test\.slow-write \d+\.\d ms for 2 jobs \(/);
    expect(line).toMatch(/UPDATE Job \d+\.\d/);
    expect(line).toMatch(/COMMIT \d+\.\d/);
    // The 70 ms of work is time between statements.
    expect(Number(/between (\d+\.\d)/.exec(line!)?.[1])).toBeGreaterThanOrEqual(60);
  });

  it("logs what a job's Prisma transaction of 50 ms or more was made of", async () => {
    const shop = await buildShop();
    const lines: string[] = [];
    explainLongHoldsTo((line) => lines.push(line));
    try {
      await inJob("test.slow-transaction", () =>
        getDb().$transaction(async (tx) => {
          await tx.shop.update({ where: { id: shop.id }, data: { name: "held" } });
          for (const until = performance.now() + 70; performance.now() < until;);
        }),
      );
      // A short one says nothing.
      await inJob("test.quick-transaction", () =>
        getDb().$transaction((tx) => tx.shop.update({ where: { id: shop.id }, data: { name: "quick" } })),
      );
    } finally {
      explainLongHoldsTo(null);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[db\] long write-lock hold: test\.slow-transaction \d+\.\d ms for one transaction \(/);
    expect(lines[0]).toMatch(/UPDATE Shop \d+\.\d/);
    expect(Number(/between (\d+\.\d)/.exec(lines[0]!)?.[1])).toBeGreaterThanOrEqual(60);
  });
});
