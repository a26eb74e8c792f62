import { randomUUID } from "node:crypto";
import { getConfig } from "../config.server";
import { bool, type BulkSql } from "../db/bulk-sql.server";
import type { BatchWrite } from "../db/job-queue.server";
import { jobRow } from "../models/jobs/enqueue.server";
import { notificationDef, type NotificationKey } from "../models/notifications/catalogue";
import { brandingOf, composeEmail, defaultTemplate } from "../models/notifications/compose-notification.server";
import { preferencesUrl } from "../models/notifications/mail-preferences";
import {
  affiliateValues,
  approvedValues,
  languageOf,
  type AffiliateRow,
  type ShopRow,
} from "../models/notifications/notification-subscriber.server";
import { parseEventTypes } from "../models/webhooks-out/endpoints.server";
import { EVENT_TYPES, isEventType } from "../models/events/event-types";

// The batch handler of "event.dispatch" (job-queue.server.ts runs it for up
// to a claim's worth of events at once): a bulk approval queues thousands of
// affiliate.approved events, and dispatching them one transaction each made
// the worker the bottleneck. Here the events' rows are read with a handful of
// set-based queries, the e-mails composed in memory, and the outbox rows and
// their email.send jobs written in one transaction with the events' "done"
// mark. Only the common, simple case is done here: affiliate.approved and
// affiliate.denied of a shop with no webhook endpoint wanting them (and, for
// an approval, the affiliate's coupon job, as queueAffiliateCoupon queues it). Every
// other event gets a new dispatch job marked `alone`, which the one-by-one
// path (dispatch-event.server.ts) runs with every subscriber, as before.
// Exactly once holds as there: the dedupe key is the same
// ("{event}:{key}:{address}"), existing keys are skipped, and the insert
// ignores a key a concurrent writer took meanwhile (its job then finds no
// row and does nothing).

const BULK_TYPES = new Set<string>(["affiliate.approved", "affiliate.denied"]);

type EventRow = { id: string; shopId: string; type: string; data: string };
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

export async function planEventDispatch(payloads: { eventId: string }[], bulk: BulkSql): Promise<BatchWrite> {
  const now = new Date();
  const events = await bulk.findIn<EventRow>(
    "DomainEvent",
    ["id", "shopId", "type", "data"],
    {},
    "id",
    uniq(payloads.map((p) => p.eventId)),
  );
  const shopIds = uniq(events.map((e) => e.shopId));
  const shops = new Map(
    (await bulk.findIn<ShopRow>("Shop", [...SHOP_COLUMNS], {}, "id", shopIds)).map((s) => [s.id, s] as const),
  );
  const endpoints = await bulk.findIn<{ shopId: string; eventTypes: string; enabled: unknown }>(
    "WebhookEndpoint",
    ["shopId", "eventTypes", "enabled"],
    {},
    "shopId",
    shopIds,
  );
  const hooked = (shopId: string, type: string) =>
    endpoints.some(
      (e) => e.shopId === shopId && bool(e.enabled) && (parseEventTypes(e.eventTypes) as string[]).includes(type),
    );

  const alone: string[] = [];
  const mine: { id: string; shopId: string; key: NotificationKey; affiliateId: string }[] = [];
  for (const event of events) {
    if (!isEventType(event.type)) continue;
    if (!BULK_TYPES.has(event.type) || !shops.has(event.shopId) || hooked(event.shopId, event.type)) {
      alone.push(event.id);
      continue;
    }
    const data = EVENT_TYPES[event.type].safeParse(JSON.parse(event.data));
    if (!data.success || !("affiliateId" in data.data)) {
      alone.push(event.id);
      continue;
    }
    mine.push({
      id: event.id,
      shopId: event.shopId,
      key: event.type as NotificationKey,
      affiliateId: String(data.data.affiliateId),
    });
  }

  const affiliates = new Map(
    (
      await bulk.findIn<AffiliateRow & { shopId: string; campaignId: string }>(
        "Affiliate",
        [...AFFILIATE_COLUMNS],
        {},
        "id",
        uniq(mine.map((e) => e.affiliateId)),
      )
    ).map((a) => [a.id, a] as const),
  );
  // Only campaigns that hand out coupons get a coupons.create job: a bulk
  // approval in a shop without them would otherwise queue thousands of jobs
  // that each read the affiliate and its campaign to do nothing.
  const couponCampaigns = new Set(
    (
      await bulk.findIn<{ id: string; couponEnabled: unknown }>(
        "Campaign",
        ["id", "couponEnabled"],
        {},
        "id",
        uniq([...affiliates.values()].map((a) => a.campaignId)),
      )
    )
      .filter((c) => bool(c.couponEnabled))
      .map((c) => c.id),
  );
  const templates = await bulk.findIn<TemplateRow>(
    "NotificationTemplate",
    ["shopId", "key", "enabled", "subject", "body"],
    {},
    "shopId",
    uniq(mine.map((e) => e.shopId)),
  );
  const wanted = mine.flatMap((event) => {
    const affiliate = affiliates.get(event.affiliateId);
    if (!affiliate || affiliate.shopId !== event.shopId) return [];
    const address = affiliate.email.toLowerCase();
    return [{ event, affiliate, address, dedupeKey: `${event.id}:${event.key}:${address}` }];
  });
  const taken = new Set(
    (
      await bulk.findIn<{ dedupeKey: string }>(
        "OutboxEmail",
        ["dedupeKey"],
        {},
        "dedupeKey",
        uniq(wanted.map((w) => w.dedupeKey)),
      )
    ).map((r) => r.dedupeKey),
  );
  const optOuts = new Set(
    (
      await bulk.findIn<{ shopId: string; address: string; kind: string }>(
        "MailOptOut",
        ["shopId", "address", "kind"],
        {},
        "address",
        uniq(wanted.map((w) => w.address)),
      )
    ).map((o) => `${o.shopId}\n${o.address}\n${o.kind}`),
  );

  const config = getConfig();
  const outbox: Record<string, string | boolean | number | Date | null>[] = [];
  for (const { event, affiliate, address, dedupeKey } of wanted) {
    if (taken.has(dedupeKey)) continue;
    taken.add(dedupeKey);
    const shop = shops.get(event.shopId)!;
    const def = notificationDef(event.key);
    const language = languageOf(affiliate, shop);
    const row = templates.find((t) => t.shopId === shop.id && t.key === event.key);
    if (row && !bool(row.enabled)) continue;
    if (!def.transactional && optOuts.has(`${shop.id}\n${address}\n${event.key}`)) continue;
    const fallback = row?.subject && row?.body ? null : defaultTemplate(event.key, language);
    const template = { subject: row?.subject ?? fallback!.subject, body: row?.body ?? fallback!.body };
    const unsubscribeUrl = def.transactional
      ? null
      : preferencesUrl(config.appUrl, config.SESSION_SECRET, shop.id, address, event.key);
    const values = {
      ...affiliateValues(shop, affiliate),
      ...(event.key === "affiliate.approved" ? approvedValues(shop, affiliate) : {}),
    };
    const mail = await composeEmail(event.key, template, values, language, brandingOf(shop), unsubscribeUrl);
    outbox.push({
      id: randomUUID(),
      shopId: shop.id,
      toAddress: address,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      kind: event.key,
      dedupeKey,
      unsubscribeUrl,
      isTest: false,
      status: "queued",
      attempts: 0,
      createdAt: now,
    });
  }
  const jobs = [
    ...outbox.map((row) => jobRow("email.send", { id: String(row.id) }, { now })),
    // What queueAffiliateCoupon does for an approval on the one-by-one path
    // (the job itself checks the campaign's coupon settings again).
    ...mine
      .filter((e) => {
        const affiliate = affiliates.get(e.affiliateId);
        return e.key === "affiliate.approved" && affiliate && couponCampaigns.has(affiliate.campaignId);
      })
      .map((e) => jobRow("coupons.create", { affiliateId: e.affiliateId }, { now })),
    ...alone.map((eventId) => jobRow("event.dispatch", { eventId, alone: true }, { now })),
  ];
  return async (writer) => {
    await writer.insertRows("OutboxEmail", outbox, { onConflict: "ignore" });
    await writer.insertRows("Job", jobs);
  };
}
