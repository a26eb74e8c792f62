import type { Tx } from "../../db/transaction";
import type { EventHandler, EventSubscriber, EventWrite } from "../events/event-subscriber";
import type { DomainEventRecord } from "../events/event-types";
import { writeEmail, type OutgoingEmail } from "../mail/outbox.server";
import { NOTIFICATION_KINDS, type NotificationKey } from "./catalogue";
import { prepareNotification, shopLanguage } from "./compose-notification.server";
import type { AffiliateEventType, TriggerContext } from "./kind";
import { merchantRecipients } from "./merchant-recipients.server";
import {
  affiliateValues,
  languageOf,
  loadAffiliate,
  notificationAffiliateSelect,
  notificationShopSelect,
  shopValues,
  type AffiliateRow,
} from "./notification-values.server";

// The e-mail subscriber of domain events (app/worker/dispatch-event.server.ts),
// made from the catalogue: for an event, every kind that names its type in
// `on` or `bulk`, in the catalogue's order, to the kind's recipients with the
// values its trigger fills in. It reads and composes before the dispatch
// job's transaction and returns the writes that transaction makes (no
// template renders under SQLite's write lock); every e-mail is keyed by
// event id and recipient, checked again as it is written, so a replayed
// event queues nothing new.

interface Mail {
  mail: OutgoingEmail;
  /** Written with the e-mail, only if the e-mail is (an invite's token). */
  with: EventWrite[];
}

async function composeKinds<T extends AffiliateEventType>(reader: Tx, event: DomainEventRecord<T>): Promise<Mail[]> {
  const kinds = NOTIFICATION_KINDS.filter((kind) => kind.on?.[event.type] || kind.bulk?.[event.type]);
  if (kinds.length === 0) return [];
  const shop = await reader.shop.findUnique({ where: { id: event.shopId }, select: notificationShopSelect });
  if (!shop) return [];
  const affiliate = await loadAffiliate(reader, shop.id, event.data.affiliateId);
  if (!affiliate) return [];
  const mails: Mail[] = [];
  for (const kind of kinds) {
    const key: NotificationKey = kind.key;
    const dedupeBy = `${event.id}:${key}`;
    const toMerchant = kind.audience === "merchant";
    const extra: Mail["with"] = [];
    const ctx: TriggerContext<T> = {
      reader,
      event,
      shop,
      affiliate,
      language: toMerchant ? shopLanguage(shop.language) : languageOf(affiliate, shop),
      writeWithMail: (write) => extra.push(write),
    };
    const trigger = kind.on?.[event.type];
    const plain = kind.bulk?.[event.type];
    const values = trigger ? await trigger.values(ctx) : plain!(ctx);
    if (!values) continue;
    if (toMerchant) {
      for (const to of await merchantRecipients(reader, shop, key)) {
        const mail = await prepareNotification(reader, {
          shop,
          key,
          to,
          language: ctx.language,
          values: { ...shopValues(shop), ...values },
          dedupeBy,
        });
        if (mail) mails.push({ mail, with: [] });
      }
      continue;
    }
    const recipient: AffiliateRow | null = trigger?.recipient ? await trigger.recipient(ctx) : affiliate;
    if (!recipient) continue;
    const mail = await prepareNotification(reader, {
      shop,
      key,
      to: recipient.email,
      language: languageOf(recipient, shop),
      values: { ...affiliateValues(shop, recipient), ...values },
      dedupeBy,
    });
    if (mail) mails.push({ mail, with: extra });
  }
  return mails;
}

const notify =
  <T extends AffiliateEventType>(): EventHandler<T> =>
  async (reader, event) => {
    const mails = await composeKinds(reader, event);
    if (mails.length === 0) return undefined;
    return async (writer) => {
      for (const { mail, with: alsoWrite } of mails) {
        if (await writeEmail(writer, mail)) for (const write of alsoWrite) await write(writer);
      }
    };
  };

/** Event subscriber: a handler for every event type some kind of the catalogue is sent on. */
export const emailSubscriber: EventSubscriber = Object.fromEntries(
  NOTIFICATION_KINDS.flatMap((kind) => [...Object.keys(kind.on ?? {}), ...Object.keys(kind.bulk ?? {})]).map((type) => [
    type,
    notify(),
  ]),
);

/**
 * "coupon code assigned": composed before the transaction that records the
 * code (by the coupons.create and leaks.rotate jobs), so no render holds
 * SQLite's write lock; the transaction writes it with the code, keyed on the
 * coupon, so it goes out once.
 */
export async function prepareCouponAssigned(reader: Tx, couponId: string, affiliateId: string, code: string) {
  const affiliate = await reader.affiliate.findUnique({
    where: { id: affiliateId },
    select: { ...notificationAffiliateSelect, shopId: true },
  });
  if (!affiliate) return null;
  const shop = await reader.shop.findUnique({ where: { id: affiliate.shopId }, select: notificationShopSelect });
  if (!shop) return null;
  return prepareNotification(reader, {
    shop,
    key: "affiliate.coupon",
    to: affiliate.email,
    language: languageOf(affiliate, shop),
    values: { ...affiliateValues(shop, affiliate), "coupon.code": code },
    dedupeBy: `coupon:${couponId}:affiliate.coupon`,
  });
}
