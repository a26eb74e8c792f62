import type { Tx } from "../../db/transaction";
import { randomUUID } from "node:crypto";
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

/** DomainEvent rows and their event.dispatch Job rows, for a bulk insert (many events in one statement). */
export function eventRows<T extends EventType>(shopId: string, type: T, list: EventData<T>[], now: Date) {
  const events = list.map((data) => ({
    id: randomUUID(),
    shopId,
    type,
    data: JSON.stringify(EVENT_TYPES[type].parse(data)),
    createdAt: now,
  }));
  return { events, jobs: events.map((e) => jobRow("event.dispatch", { eventId: e.id }, { now })) };
}

/**
 * Many events of one type in a few statements (a bulk approval of thousands
 * of affiliates answers in well under a second): the rows emitEvent writes,
 * inserted together.
 */
export async function emitEvents<T extends EventType>(tx: Tx, shopId: string, type: T, list: EventData<T>[]) {
  const now = new Date();
  const CHUNK = 500;
  for (let start = 0; start < list.length; start += CHUNK) {
    const { events, jobs } = eventRows(shopId, type, list.slice(start, start + CHUNK), now);
    await tx.domainEvent.createMany({ data: events });
    await tx.job.createMany({ data: jobs });
  }
}
