import { randomUUID } from "node:crypto";
import { prismaBulk } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import { dialectOf } from "../dashboard/rollup-sql.server";
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
 * emitEvent for many events of one type at once (a refresh that opens
 * thousands of payouts): the same rows, written in two bulk inserts.
 */
export async function emitEvents<T extends EventType>(tx: Tx, shopId: string, type: T, list: EventData<T>[]) {
  if (list.length === 0) return;
  const now = new Date();
  const rows = list.map((data) => ({
    id: randomUUID(),
    shopId,
    type,
    data: JSON.stringify(EVENT_TYPES[type].parse(data)),
    createdAt: now,
  }));
  // One JSON parameter per slice (bulk-sql.server.ts): Prisma's createMany
  // costs far more per row at these counts.
  const bulk = prismaBulk(tx, dialectOf(tx));
  await bulk.insertRows("DomainEvent", rows);
  await bulk.insertRows(
    "Job",
    rows.map((r) => jobRow("event.dispatch", { eventId: r.id }, { now })),
  );
}
