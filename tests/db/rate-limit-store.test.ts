import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { createRateLimiter } from "~/db/rate-limit-store.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The shared limiter table counts every call exactly, also when many arrive
// at once for one key (a burst from one address is what a limiter is for).
// The library's own Prisma store reads, then writes: under PostgreSQL two
// first calls both insert (one fails with a unique violation, a 500 to the
// visitor) and two later calls both write the same count (the burst is
// undercounted).

applyTestEnv();
useTestDatabase();

const settle = (calls: Promise<unknown>[]) =>
  Promise.allSettled(calls).then((results) =>
    results.map((r) => {
      if (r.status === "fulfilled") return "allowed";
      if (r.reason instanceof RateLimiterRes) return "refused";
      throw r.reason;
    }),
  );

describe("the rate-limit store", () => {
  it("counts a burst of first calls for one key exactly, refusing only those past the limit", async () => {
    const limiter = createRateLimiter({ keyPrefix: "burst", points: 7, duration: 60 });
    const outcomes = await settle(Array.from({ length: 12 }, () => limiter.consume("1.2.3.4")));
    expect(outcomes.filter((o) => o === "allowed")).toHaveLength(7);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(5);
    const row = await getDb().rateLimiterFlexible.findUniqueOrThrow({ where: { key: "burst:1.2.3.4" } });
    expect(row.points).toBe(12);
    expect(row.expire!.getTime()).toBeGreaterThan(Date.now() + 55_000);
    expect(row.expire!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("keeps counting within the window and starts again once it has passed", async () => {
    const limiter = createRateLimiter({ keyPrefix: "window", points: 3, duration: 60 });
    const first = await limiter.consume("k");
    expect(first).toMatchObject({ consumedPoints: 1, remainingPoints: 2, isFirstInDuration: true });
    const second = await limiter.consume("k", 2);
    expect(second).toMatchObject({ consumedPoints: 3, remainingPoints: 0, isFirstInDuration: false });
    expect(second.msBeforeNext).toBeGreaterThan(55_000);
    await expect(limiter.consume("k")).rejects.toBeInstanceOf(RateLimiterRes);
    expect((await limiter.get("k"))?.consumedPoints).toBe(4);

    // The window ran out: the next call opens a new one.
    await getDb().rateLimiterFlexible.update({
      where: { key: "window:k" },
      data: { expire: new Date(Date.now() - 1000) },
    });
    expect(await limiter.get("k")).toBeNull();
    const fresh = await limiter.consume("k");
    expect(fresh).toMatchObject({ consumedPoints: 1, isFirstInDuration: true });
    expect(fresh.msBeforeNext).toBeGreaterThan(55_000);

    // Other keys and prefixes are counted apart.
    expect((await limiter.consume("other")).consumedPoints).toBe(1);
    const elsewhere = createRateLimiter({ keyPrefix: "elsewhere", points: 3, duration: 60 });
    expect((await elsewhere.consume("k")).consumedPoints).toBe(1);
  });

  it("blocks for the block duration past the limit, and a delete lifts it", async () => {
    const limiter = createRateLimiter({ keyPrefix: "block", points: 2, duration: 60, blockDuration: 600 });
    await limiter.consume("k");
    await limiter.consume("k");
    const refused = await limiter.consume("k").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    // The block replaces the window: ten minutes from now, not one.
    expect((refused as RateLimiterRes).msBeforeNext).toBeGreaterThan(590_000);
    const row = await getDb().rateLimiterFlexible.findUniqueOrThrow({ where: { key: "block:k" } });
    expect(row.expire!.getTime()).toBeGreaterThan(Date.now() + 590_000);
    await expect(limiter.consume("k")).rejects.toBeInstanceOf(RateLimiterRes);

    expect(await limiter.delete("k")).toBe(true);
    expect((await limiter.consume("k")).consumedPoints).toBe(1);
  });

  it("counts a burst on a key whose window has run out as one new window", async () => {
    const limiter = createRateLimiter({ keyPrefix: "stale", points: 4, duration: 60 });
    await getDb().rateLimiterFlexible.create({
      data: { key: "stale:k", points: 99, expire: new Date(Date.now() - 5000) },
    });
    const outcomes = await settle(Array.from({ length: 6 }, () => limiter.consume("k")));
    expect(outcomes.filter((o) => o === "allowed")).toHaveLength(4);
    expect((await limiter.get("k"))?.consumedPoints).toBe(6);
  });
});
