import type { Tx } from "../../db/transaction";
import { queueAffiliateCoupon } from "../marketings/affiliate-coupon.server";
import { notifyByEmail } from "../notifications/notification-subscriber.server";
import { refreshPayoutsOnBalanceChange } from "../payouts/payout-refresh-job.server";
import { queueWebhookDeliveries } from "../webhooks-out/webhook-subscriber.server";
import { EVENT_TYPES, isEventType, type DomainEventRecord } from "./event-types";

// The "event.dispatch" job: hands one stored event to every subscriber. A
// subscriber reads and composes first (outside any transaction: on SQLite
// no write lock is held meanwhile) and returns the rows to write, which the
// job writes in one short transaction with its "done" mark (ADR 035).
// Subscribers only write rows (outbox e-mails, webhook deliveries) and queue
// their own jobs, so a retried dispatch must be harmless: each keys what it
// writes on the event id (one e-mail per event and recipient, one delivery
// per event and endpoint), checked again as it writes.

export type EventWrite = (tx: Tx) => Promise<unknown>;
export type EventSubscriber = (reader: Tx, event: DomainEventRecord) => Promise<EventWrite | undefined>;

/**
 * Who hears every event. E-mail notifications and outgoing webhooks add
 * themselves here; so does the pending payouts' refresh, which follows the
 * balances (payout-refresh-job.server.ts).
 */
const SUBSCRIBERS: EventSubscriber[] = [
  notifyByEmail,
  queueWebhookDeliveries,
  queueAffiliateCoupon,
  refreshPayoutsOnBalanceChange,
];

/** The job's read step: what every subscriber will write for this event (null: nothing). */
export async function planDispatch(reader: Tx, eventId: string): Promise<EventWrite | null> {
  const row = await reader.domainEvent.findUnique({ where: { id: eventId } });
  if (!row || !isEventType(row.type)) return null;
  const data = EVENT_TYPES[row.type].parse(JSON.parse(row.data));
  const event = { id: row.id, shopId: row.shopId, type: row.type, data, createdAt: row.createdAt } as DomainEventRecord;
  const writes: EventWrite[] = [];
  for (const subscriber of SUBSCRIBERS) {
    const write = await subscriber(reader, event);
    if (write) writes.push(write);
  }
  if (writes.length === 0) return null;
  return async (tx) => {
    for (const write of writes) await write(tx);
  };
}

/** Both steps in one transaction (tests; the job runs them apart). */
export async function dispatchEvent(tx: Tx, eventId: string) {
  const write = await planDispatch(tx, eventId);
  if (write) await write(tx);
}
