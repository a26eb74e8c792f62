import { getDb } from "../db.server";
import { prismaBulk } from "../db/bulk-sql.server";
import { dialectOf } from "../db/dialect";
import type { Tx } from "../db/transaction";
import { jobRow } from "../models/jobs/enqueue.server";
import type { JobPayload } from "../models/jobs/job-payloads";
import type { EventSubscriber, EventWrite } from "../models/events/event-subscriber";
import { readEvent, type DomainEventRecord, type EventType } from "../models/events/event-types";
import { flowTriggerSubscriber } from "../models/flow/flow-trigger-subscriber.server";
import { couponSubscriber } from "../models/marketings/affiliate-coupon.server";
import { emailSubscriber } from "../models/notifications/notification-subscriber.server";
import { payoutRefreshSubscriber } from "../models/payouts/payout-refresh-job.server";
import { webhookSubscriber } from "../models/webhooks-out/webhook-subscriber.server";

// The "event.dispatch" job: hands one stored event to every subscriber of
// its type. A subscriber reads and composes first (outside any transaction:
// on SQLite no write lock is held meanwhile) and returns the rows to write,
// which the job writes in one short transaction with its "done" mark (ADR
// 035). Subscribers only write rows (outbox e-mails, webhook deliveries) and
// queue their own jobs, so a retried dispatch must be harmless: each keys
// what it writes on the event id (one e-mail per event and recipient, one
// delivery per event and endpoint), checked again as it writes.

/**
 * Who hears events: e-mail notifications, outgoing webhooks, the approved
 * affiliate's coupon, the pending payouts' refresh, which follows the
 * balances (payout-refresh-job.server.ts), and Shopify Flow's triggers. Each declares the types it hears.
 */
const SUBSCRIBERS: EventSubscriber[] = [
  emailSubscriber,
  webhookSubscriber,
  couponSubscriber,
  payoutRefreshSubscriber,
  flowTriggerSubscriber,
];

/** What every subscriber of the event's type will write for it (null: nothing). */
export async function planEvent<T extends EventType>(
  reader: Tx,
  event: DomainEventRecord<T>,
): Promise<EventWrite | null> {
  const writes: EventWrite[] = [];
  for (const subscriber of SUBSCRIBERS) {
    const handler = subscriber[event.type];
    const write = handler ? await handler(reader, event) : undefined;
    if (write) writes.push(write);
  }
  if (writes.length === 0) return null;
  return async (writer) => {
    for (const write of writes) await write(writer);
  };
}

/** The job's read step, for one event by id (null: nothing to write). */
export async function planDispatch(reader: Tx, eventId: string): Promise<EventWrite | null> {
  const row = await reader.domainEvent.findUnique({ where: { id: eventId } });
  const event = row && readEvent(row);
  return event ? planEvent(reader, event) : null;
}

export type DispatchPayload = JobPayload<"event.dispatch">;

/** The events a job hands out: one, or those of one bulk write (emit-event.server.ts). */
export function dispatchedEventIds(payload: DispatchPayload): string[] {
  return "eventIds" in payload ? payload.eventIds : [payload.eventId];
}

/**
 * The job's read step when it runs on its own. A job of many events only
 * runs here when its batch failed (job-queue.server.ts runs each job of a
 * failed batch alone): it becomes one `alone` job per event, so every event
 * is then dispatched, or fails with its reason and retries, on its own, as
 * each did when every event had a job of its own; the other events of the
 * job do not wait on the one that fails.
 */
export async function planDispatchJob(reader: Tx, payload: DispatchPayload): Promise<EventWrite | null> {
  if ("eventId" in payload) return planDispatch(reader, payload.eventId);
  const now = new Date();
  const jobs = payload.eventIds.map((eventId) => jobRow("event.dispatch", { eventId, alone: true }, { now }));
  return (writer) => writer.insertRows("Job", jobs);
}

/** Both steps, as the job runs them: the plan outside, the write in its own transaction (tests). */
export async function dispatchEvent(eventId: string) {
  const write = await planDispatch(getDb(), eventId);
  if (write) await getDb().$transaction((tx) => write(prismaBulk(tx, dialectOf(tx))));
}
