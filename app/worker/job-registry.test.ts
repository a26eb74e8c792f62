import { describe, expect, it } from "vitest";
import type { Db } from "../db.server";
import { enqueueJob } from "../models/jobs/enqueue.server";
import { JOB_PAYLOADS, type JobName } from "../models/jobs/job-payloads";
import { JOBS } from "./job-registry.server";

// Compile-time checks: tsc (a CI gate) fails when one of these lines stops
// being an error, i.e. when enqueue would accept a payload of the wrong shape.
export function wrongPayloadsDoNotCompile(db: Db) {
  // @ts-expect-error the e-mail job takes { id }, not an order id
  void enqueueJob(db, "email.send", { orderId: "o1" });
  // @ts-expect-error a job name without a registered type
  void enqueueJob(db, "email.sned", { id: "e1" });
  // @ts-expect-error shopId must be a string
  void enqueueJob(db, "dashboard.rollup", { shopId: 42 });
  // The right shapes compile.
  void enqueueJob(db, "email.send", { id: "e1" });
  void enqueueJob(db, "webhook", { eventId: "ev1", topic: "orders/create" });
}

describe("the job registry", () => {
  it("has a handler for exactly the job names that have a payload schema, each with that schema", () => {
    expect(Object.keys(JOBS).sort()).toEqual(Object.keys(JOB_PAYLOADS).sort());
    for (const name of Object.keys(JOB_PAYLOADS) as JobName[]) {
      expect(JOBS[name].payload, name).toBe(JOB_PAYLOADS[name]);
      // run: in a transaction; effect: no transaction held; plan: reads first, then a short write.
      const handlers = ["run", "effect", "plan"].filter(
        (k) => typeof (JOBS[name] as Record<string, unknown>)[k] === "function",
      );
      expect(handlers, name).toHaveLength(1);
    }
  });

  it.each([
    ["email.send", { id: "" }, /id/],
    ["email.send", {}, /id: Required/],
    ["orders.approve", { orderId: 7 }, /orderId: Expected string/],
    ["webhook", { topic: "orders/create" }, /eventId: Required/],
    ["shop.erase", { shopDomain: "x".repeat(300) }, /shopDomain/],
  ] as const)("%s refuses %j at enqueue time, before anything is stored", async (type, payload, message) => {
    const client = {
      job: {
        create: () => Promise.reject(new Error("must not be reached")),
        upsert: () => Promise.reject(new Error("must not be reached")),
      },
    } as unknown as Db;
    await expect(enqueueJob(client, type as JobName, payload as never)).rejects.toThrow(message);
  });
});
