import { ANY_SHOP, bool, date, type BulkSql } from "../db/bulk-sql.server";
import type { BatchWrite } from "../db/job-queue.server";
import { jobRow } from "../models/jobs/enqueue.server";
import { outboxRow, withoutOptedOut } from "../models/mail/outbox.server";
import { NOTIFICATION_KINDS } from "../models/notifications/catalogue";
import {
  brandingOf,
  composeEmail,
  defaultTemplate,
  outgoingEmail,
  unsubscribeUrlOf,
} from "../models/notifications/compose-notification.server";
import type { AffiliateEventType, NotificationKind, PlainContext } from "../models/notifications/kind";
import {
  affiliateValues,
  languageOf,
  primeMailReads,
  type AffiliateRow,
  type ShopRow,
} from "../models/notifications/notification-values.server";
import { parseEventTypes } from "../models/webhooks-out/endpoints.server";
import { eventTriggerKey, flowTriggerRows } from "../models/flow/flow-trigger-queue.server";
import { affiliateApprovedPayload } from "../models/flow/flow-triggers";
import { couponJob } from "../models/marketings/affiliate-coupon.server";
import { readEvent, type DomainEvent, type DomainEventRecord } from "../models/events/event-types";
import type { EventWrite } from "../models/events/event-subscriber";
import type { Tx } from "../db/transaction";
import { memoReads } from "../db/memo-reads.server";
import { dispatchedEventIds, planEvent, type DispatchPayload } from "./dispatch-event.server";

// The batch handler of "event.dispatch" (job-queue.server.ts runs it for up
// to a claim's worth of events at once): a bulk approval queues thousands of
// affiliate.approved events, and dispatching them one transaction each made
// the worker the bottleneck. Here the events' rows are read with a handful of
// set-based queries, the e-mails composed in memory, and the outbox rows and
// their email.send jobs written in one transaction with the events' "done"
// mark. Set-based reads serve the common, simple case: affiliate.approved
// and affiliate.denied of a shop with no webhook endpoint wanting them (and,
// for an approval, the affiliate's coupon job, as couponSubscriber queues
// it), while every e-mail kind sent on them is a `bulk` one (its values read
// nothing; the same function the one-by-one path calls). Every other event
// (an order's commissions and sale) is planned by its subscribers one by one
// (dispatch-event.server.ts), and their writes join the same transaction: on
// SQLite the worker's own connection holds the write lock for prepared
// statements only, where each event used to be a Prisma transaction of its
// own. Only an event whose row cannot be read comes back as an `alone` job.
// Exactly once holds as there: the dedupe key is the same
// ("{event}:{key}:{address}"), existing keys are skipped, and the insert
// ignores a key a concurrent writer took meanwhile (its job then finds no
// row and does nothing).

// The types whose other subscribers this file stands in for (webhooks: the
// `hooked` check; the coupon job of an approval).
type BulkType = "affiliate.approved" | "affiliate.denied";
type BulkEvent = DomainEventRecord<BulkType>;
const BULK_TYPES: readonly BulkType[] = ["affiliate.approved", "affiliate.denied"];

type Kind = NotificationKind<(typeof NOTIFICATION_KINDS)[number]["key"]>;
/** The kinds a bulk type sends; null when one of them reads (then the events go alone). */
function bulkKinds(type: BulkType): Kind[] | null {
  const kinds: Kind[] = NOTIFICATION_KINDS.filter((kind) => kind.on?.[type] || kind.bulk?.[type]);
  return kinds.every((kind) => !kind.on?.[type] && kind.audience === "affiliate") ? kinds : null;
}
const KINDS_BY_TYPE = new Map<string, Kind[] | null>(BULK_TYPES.map((type) => [type, bulkKinds(type)]));

function isBulk(event: DomainEvent): event is BulkEvent {
  return KINDS_BY_TYPE.get(event.type) != null;
}

function bulkValues<T extends AffiliateEventType>(kind: Kind, ctx: PlainContext<T>) {
  return kind.bulk?.[ctx.event.type]?.(ctx) ?? null;
}

type EventRow = { id: string; shopId: string; type: string; data: string; createdAt: unknown };
type TemplateRow = { shopId: string; key: string; enabled: unknown; subject: string | null; body: string | null };

const SHOP_COLUMNS = [
  "id",
  "name",
  "url",
  "domain",
  "language",
  "adminEmail",
  "portalDomain",
  "referralParam",
  "settings",
] as const;
const AFFILIATE_COLUMNS = [
  "id",
  "shopId",
  "email",
  "firstName",
  "lastName",
  "referralCode",
  "language",
  "parentId",
  "status",
  "campaignId",
] as const;

const uniq = (values: string[]) => [...new Set(values)];

export async function planEventDispatch(payloads: DispatchPayload[], bulk: BulkSql, reader: Tx): Promise<BatchWrite> {
  const now = new Date();
  const events = await bulk.from("DomainEvent").findIn<EventRow>(
    ["id", "shopId", "type", "data", "createdAt"],
    { shopId: ANY_SHOP },
    "id",
    // A job of many events is planned as those events in jobs of their own.
    uniq(payloads.flatMap(dispatchedEventIds)),
  );
  const shopIds = uniq(events.map((e) => e.shopId));
  const shops = new Map(
    (await bulk.from("Shop").findIn<ShopRow>([...SHOP_COLUMNS], {}, "id", shopIds)).map((s) => [s.id, s] as const),
  );
  const endpoints = await bulk
    .from("WebhookEndpoint")
    .findIn<{ shopId: string; eventTypes: string; enabled: unknown }>(
      ["shopId", "eventTypes", "enabled"],
      { shopId: shopIds },
      "shopId",
      shopIds,
    );
  const hooked = (shopId: string, type: string) =>
    endpoints.some(
      (e) => e.shopId === shopId && bool(e.enabled) && (parseEventTypes(e.eventTypes) as string[]).includes(type),
    );

  const alone: string[] = [];
  const mine: BulkEvent[] = [];
  const others: DomainEvent[] = [];
  for (const row of events) {
    let event: DomainEvent | null;
    try {
      event = readEvent({ ...row, createdAt: date(row.createdAt) });
    } catch {
      alone.push(row.id);
      continue;
    }
    if (!event) continue;
    if (!isBulk(event) || !shops.has(event.shopId) || hooked(event.shopId, event.type)) {
      others.push(event);
      continue;
    }
    mine.push(event);
  }
  // Every other event is planned by its subscribers, as the one-by-one path
  // does (their reads through Prisma, outside the write lock), and written
  // with the rest of the batch.
  // The events of a batch share most of what their subscribers read (the
  // shop, its templates, the chain's affiliates, the order): read once.
  const shared = memoReads(reader);
  // The orders and affiliates their e-mails read, for the whole batch at once.
  await primeMailReads(shared, others);
  const planned: EventWrite[] = [];
  for (const event of others) {
    const write = await planEvent(shared, event);
    if (write) planned.push(write);
  }

  const affiliates = new Map(
    (
      await bulk
        .from("Affiliate")
        .findIn<AffiliateRow & { shopId: string; campaignId: string }>(
          [...AFFILIATE_COLUMNS],
          { shopId: shopIds },
          "id",
          uniq(mine.map((e) => e.data.affiliateId)),
        )
    ).map((a) => [a.id, a] as const),
  );
  // Only campaigns that hand out coupons get a coupons.create job: a bulk
  // approval in a shop without them would otherwise queue thousands of jobs
  // that each read the affiliate and its campaign to do nothing.
  const couponCampaigns = new Set(
    (
      await bulk
        .from("Campaign")
        .findIn<{ id: string; couponEnabled: unknown }>(
          ["id", "couponEnabled"],
          { shopId: shopIds },
          "id",
          uniq([...affiliates.values()].map((a) => a.campaignId)),
        )
    )
      .filter((c) => bool(c.couponEnabled))
      .map((c) => c.id),
  );
  const templates = await bulk
    .from("NotificationTemplate")
    .findIn<TemplateRow>(
      ["shopId", "key", "enabled", "subject", "body"],
      { shopId: shopIds },
      "shopId",
      uniq(mine.map((e) => e.shopId)),
    );
  const wanted = mine.flatMap((event) => {
    const affiliate = affiliates.get(event.data.affiliateId);
    if (!affiliate || affiliate.shopId !== event.shopId) return [];
    const address = affiliate.email.toLowerCase();
    return KINDS_BY_TYPE.get(event.type)!.map((kind) => ({
      event,
      kind,
      affiliate,
      address,
      dedupeKey: `${event.id}:${kind.key}:${address}`,
    }));
  });
  const taken = new Set(
    (
      await bulk
        .from("OutboxEmail")
        .findIn<{ dedupeKey: string }>(
          ["dedupeKey"],
          { shopId: shopIds },
          "dedupeKey",
          uniq(wanted.map((w) => w.dedupeKey)),
        )
    ).map((r) => r.dedupeKey),
  );

  // What flowTriggerSubscriber does for an approval on the one-by-one path:
  // one affiliate-approved trigger per event, for shops that take them
  // (installed, with an offline session), unless a replay queued it already.
  const flowShops = new Set(
    (
      await bulk
        .from("Session")
        .findIn<{ shop: string }>(["shop"], {}, "id", uniq(mine.map((e) => `offline_${shops.get(e.shopId)!.domain}`)))
    ).map((s) => s.shop),
  );
  const flowWanted = mine.flatMap((event) => {
    const shop = shops.get(event.shopId)!;
    const affiliate = affiliates.get(event.data.affiliateId);
    if (event.type !== "affiliate.approved" || !affiliate || affiliate.shopId !== event.shopId) return [];
    // (An uninstalled shop's trigger is skipped by its job, which checks again.)
    if (!flowShops.has(shop.domain)) return [];
    return [{ event, affiliate, dedupeKey: eventTriggerKey(event.id, "affiliate-approved") }];
  });
  const flowTaken = new Set(
    (
      await bulk
        .from("FlowTrigger")
        .findIn<{ dedupeKey: string }>(
          ["dedupeKey"],
          { shopId: shopIds },
          "dedupeKey",
          uniq(flowWanted.map((w) => w.dedupeKey)),
        )
    ).map((r) => r.dedupeKey),
  );
  const flow = flowWanted
    .filter((w) => !flowTaken.has(w.dedupeKey))
    .map(({ event, affiliate, dedupeKey }) =>
      flowTriggerRows(event.shopId, "affiliate-approved", dedupeKey, affiliateApprovedPayload(affiliate), now),
    );

  const outbox: ReturnType<typeof outboxRow>[] = [];
  for (const { event, kind, affiliate, address, dedupeKey } of wanted) {
    if (taken.has(dedupeKey)) continue;
    taken.add(dedupeKey);
    const shop = shops.get(event.shopId)!;
    const { key } = kind;
    const language = languageOf(affiliate, shop);
    const own = bulkValues(kind, { event, shop, affiliate, language });
    if (!own) continue;
    const row = templates.find((t) => t.shopId === shop.id && t.key === key);
    if (row && !bool(row.enabled)) continue;
    const fallback = row?.subject && row?.body ? null : defaultTemplate(key, language);
    const template = { subject: row?.subject ?? fallback!.subject, body: row?.body ?? fallback!.body };
    const unsubscribeUrl = unsubscribeUrlOf(shop.id, address, key);
    const values = { ...affiliateValues(shop, affiliate), ...own };
    const mail = await composeEmail(key, template, values, language, brandingOf(shop), unsubscribeUrl);
    outbox.push(outboxRow(outgoingEmail(shop.id, address, key, mail, dedupeKey, unsubscribeUrl), now));
  }
  const jobs = [
    // What couponSubscriber does for an approval on the one-by-one path
    // (the job itself checks the campaign's coupon settings again).
    ...mine
      .filter((e) => {
        const affiliate = affiliates.get(e.data.affiliateId);
        return e.type === "affiliate.approved" && affiliate && couponCampaigns.has(affiliate.campaignId);
      })
      .map((e) => couponJob(e.data.affiliateId, e.id, now)),
    ...alone.map((eventId) => jobRow("event.dispatch", { eventId, alone: true }, { now })),
  ];
  return async (writer) => {
    for (const write of planned) await write(writer);
    // Opt-outs are read here, with the write, as writeEmail does: one saved
    // while the batch was being composed still stops its e-mail.
    const mails = await withoutOptedOut(writer, outbox);
    await writer.insertRows("OutboxEmail", mails, { onConflict: "ignore" });
    // A trigger a concurrent writer queued meanwhile is skipped; its job then finds no row.
    await writer.insertRows(
      "FlowTrigger",
      flow.map((f) => f.trigger),
      { onConflict: "ignore" },
    );
    await writer.insertRows(
      "Job",
      flow.map((f) => f.job),
    );
    // (A coupon job a replay queued already is skipped.)
    await writer.insertRows("Job", [...mails.map((row) => jobRow("email.send", { id: row.id }, { now })), ...jobs], {
      onConflict: "ignore",
    });
  };
}
