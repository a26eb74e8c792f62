import { setTimeout as sleep } from "node:timers/promises";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import {
  holdStart,
  recordWriteLockHold,
  statementLabel,
  writeLockHolds,
  writeLockSummaryLine,
} from "./write-lock-stats";

/** Keeps this process busy until it has used `ms` of CPU time. */
function spinCpu(ms: number) {
  const before = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("write-lock holds", () => {
  it("tells a hold that waited from one that worked", async () => {
    const waited = holdStart();
    await sleep(60);
    recordWriteLockHold("test-waited", waited);
    const worked = holdStart();
    spinCpu(60);
    recordWriteLockHold("test-worked", worked);

    const holds = writeLockHolds();
    expect(holds["test-waited"]).toMatchObject({ count: 1, over50: 1, over50Cpu: 0, yielded: 1 });
    expect(holds["test-waited"]!.maxMs).toBeGreaterThanOrEqual(50);
    expect(holds["test-waited"]!.cpuOfLongestMs).toBeLessThan(50);
    expect(holds["test-worked"]).toMatchObject({ count: 1, over50: 1, over50Cpu: 1, yielded: 0 });
    expect(holds["test-worked"]!.maxCpuMs).toBeGreaterThanOrEqual(60);
  });

  it("keeps the CPU time of the longest hold, and the most CPU of any", async () => {
    const busy = holdStart();
    spinCpu(20);
    recordWriteLockHold("test-mixed", busy);
    const idle = holdStart();
    await sleep(80);
    recordWriteLockHold("test-mixed", idle);

    const mixed = writeLockHolds()["test-mixed"]!;
    expect(mixed.count).toBe(2);
    expect(mixed.maxMs).toBeGreaterThanOrEqual(75);
    expect(mixed.cpuOfLongestMs).toBeLessThan(20);
    expect(mixed.maxCpuMs).toBeGreaterThanOrEqual(20);
    expect(mixed.yielded).toBe(1);
    expect(writeLockSummaryLine()).toMatch(/test-mixed \d+\.\d \(2, mean \d+\.\d, cpu \d+\.\d, yielded 1\)/);
  });

  it("counts the garbage collection pauses inside the holds of 50 ms or more, not those outside", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    // Something for a full collection to walk.
    const garbage = Array.from({ length: 300_000 }, (_, i) => ({ i, text: `row ${i}` }));

    const short = holdStart();
    recordWriteLockHold("test-gc-short", short);
    // A pause outside any hold counts nowhere.
    gc();

    const long = holdStart();
    gc();
    spinCpu(55);
    recordWriteLockHold("test-gc-long", long);
    // V8 reports the pauses once the event loop turns.
    await sleep(20);

    // Alive until both collections have walked it.
    garbage.length = 0;
    const holds = writeLockHolds();
    expect(holds["test-gc-long"]!.over50).toBe(1);
    expect(holds["test-gc-long"]!.gcInOver50Ms).toBeGreaterThan(0);
    expect(holds["test-gc-long"]!.gcInOver50Ms).toBeLessThanOrEqual(holds["test-gc-long"]!.over50Ms);
    expect(holds["test-gc-short"]!.over50).toBe(0);
    expect(holds["test-gc-short"]!.gcInOver50Ms).toBe(0);
  });
});

describe("statementLabel", () => {
  it.each([
    ['INSERT INTO "Commission" ("id") VALUES (?)', "INSERT Commission"],
    ["UPDATE `main`.`Order` SET `lines` = ? WHERE `id` = ?", "UPDATE Order"],
    ['DELETE FROM "Job" WHERE "id" = ?', "DELETE Job"],
    ["SELECT `main`.`Order`.`id`, `main`.`Order`.`lines` FROM `main`.`Order` WHERE 1", "SELECT Order"],
    ['SELECT "id" FROM "WebhookEvent" WHERE "id" IN (SELECT value FROM json_each(?))', "SELECT WebhookEvent"],
    ["COMMIT", "COMMIT"],
  ])("%s is %s", (sql, label) => {
    expect(statementLabel(sql)).toBe(label);
  });
});
