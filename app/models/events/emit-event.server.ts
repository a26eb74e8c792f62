import { randomUUID } from "node:crypto";
import { prismaBulk } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import { dialectOf } from "../../db/dialect";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
import { EVENT_TYPES, type EventData, type EventType } from "./event-types";

/**
 * Records a domain event in the caller's transaction and queues its
 * dispatch: a rolled-back change announces nothing, and a committed one is
 * announced even if the process dies right after the commit.
 */
export async function emitEvent<T extends EventType>(tx: Tx, shopId: string, type: T, data: EventData<T>) {
  const parsed = EVENT_TYPES[type].parse(data);
  const row = await tx.domainEvent.create({
    data: { shopId, type, data: JSON.stringify(parsed) },
    select: { id: true },
  });
  await enqueueJob(tx, "event.dispatch", { eventId: row.id });
  return row.id;
}

/**
 * The most events one event.dispatch job hands out. A job's writes commit
 * with its "done" mark, so the worker cannot split one across write
 * transactions: this bounds the longest SQLite write-lock hold a dispatch
 * can make (ADR 035 aims at 25 ms), while one order slice's events (16
 * orders, a sale and three commission levels each) still fit in one job.
 */
export const EVENTS_PER_DISPATCH_JOB = 64;

/** DomainEvent rows, for a caller's own bulk insert (with dispatchJobRows for all of them). */
export function domainEventRows<T extends EventType>(shopId: string, type: T, list: EventData<T>[], now: Date) {
  return list.map((data) => ({
    id: randomUUID(),
    shopId,
    type,
    data: JSON.stringify(EVENT_TYPES[type].parse(data)),
    createdAt: now,
  }));
}

/**
 * The event.dispatch Job rows of one bulk write's events: shared, a job per
 * EVENTS_PER_DISPATCH_JOB events, where each event used to have its own job
 * row to write, claim and mark done (an order wrote four).
 */
export function dispatchJobRows(events: { id: string }[], now: Date) {
  const jobs = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_DISPATCH_JOB) {
    const eventIds = events.slice(i, i + EVENTS_PER_DISPATCH_JOB).map((e) => e.id);
    jobs.push(jobRow("event.dispatch", { eventIds }, { now }));
  }
  return jobs;
}

/** DomainEvent rows and their event.dispatch Job rows, for a caller's own bulk insert. */
export function eventRows<T extends EventType>(shopId: string, type: T, list: EventData<T>[], now: Date) {
  const events = domainEventRows(shopId, type, list, now);
  return { events, jobs: dispatchJobRows(events, now) };
}

/**
 * emitEvent for many events of one type at once (a bulk approval, a refresh
 * that opens thousands of payouts): the same rows, in bulk inserts of one
 * JSON parameter per slice (bulk-sql.server.ts), which cost far less per row
 * than Prisma's createMany at these counts.
 */
export async function emitEvents<T extends EventType>(tx: Tx, shopId: string, type: T, list: EventData<T>[]) {
  if (list.length === 0) return;
  const { events, jobs } = eventRows(shopId, type, list, new Date());
  const bulk = prismaBulk(tx, dialectOf(tx));
  await bulk.insertRows("DomainEvent", events);
  await bulk.insertRows("Job", jobs);
}
