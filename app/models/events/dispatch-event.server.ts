import type { Tx } from "../../db/transaction";
import { queueAffiliateCoupon } from "../marketings/affiliate-coupon.server";
import { notifyByEmail } from "../notifications/notification-subscriber.server";
import { refreshPayoutsOnBalanceChange } from "../payouts/payout-refresh-job.server";
import { queueWebhookDeliveries } from "../webhooks-out/webhook-subscriber.server";
import { EVENT_TYPES, isEventType, type DomainEventRecord } from "./event-types";

// The "event.dispatch" job: hands one stored event to every subscriber, in
// the job's transaction. Subscribers only write rows (outbox e-mails,
// webhook deliveries) and queue their own jobs, so a retried dispatch must
// be harmless: each subscriber keys what it writes on the event id (one
// e-mail per event and recipient, one delivery per event and endpoint).

export type EventSubscriber = (tx: Tx, event: DomainEventRecord) => Promise<void>;

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

export async function dispatchEvent(tx: Tx, eventId: string) {
  const row = await tx.domainEvent.findUnique({ where: { id: eventId } });
  if (!row || !isEventType(row.type)) return;
  const data = EVENT_TYPES[row.type].parse(JSON.parse(row.data));
  const event = { id: row.id, shopId: row.shopId, type: row.type, data, createdAt: row.createdAt } as DomainEventRecord;
  for (const subscriber of SUBSCRIBERS) await subscriber(tx, event);
}
