import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { formatDateIn, formatMoneyIn, formatNumberIn } from "../../i18n/format";
import { localDay } from "../bonuses/bonus-periods";
import { enqueueJob } from "../jobs/enqueue.server";
import { methodsOfAffiliates } from "../payouts/affiliate-payout-choice.server";
import { paymentSettingsOf } from "../payouts/payment-settings";
import { accountOriginFor } from "../portal/portal-context.server";
import { shopSettingsObject } from "../settings/shop-settings";
import { chunks } from "../../lib/chunks";
import { startOfShopDay } from "../../lib/shop-day";
import { queueEmails, type OutgoingEmail } from "../mail/outbox.server";
import { prepareNotification, shopLanguage } from "./compose-notification.server";
import { digestModeOf, digestPeriod, nextRunAt, REMINDER_EVERY_DAYS, type DigestPeriod } from "./mail-schedule";
import { merchantRecipients } from "./merchant-recipients.server";
import {
  affiliateValues,
  languageOf,
  notificationAffiliateSelect,
  notificationShopSelect,
  type ShopRow,
} from "./notification-values.server";

// The "notifications.daily" job of a shop (mail-schedule.ts says when): the
// affiliates' "payout method missing" reminders and the merchant's digest,
// composed before its short write transaction, then the next run. Each
// e-mail has a dedupe key of its period (the reminder: affiliate and local
// day; the digest: the period), so a run repeated after a crash queues
// nothing twice; the reminder also looks back REMINDER_EVERY_DAYS days for
// an earlier one, so it never comes more often.

const JOB = "notifications.daily";
const DAY_MS = 86_400_000;

const shopSelect = {
  ...notificationShopSelect,
  timezone: true,
  currency: true,
  uninstalledAt: true,
} as const;

/**
 * Queues the shop's next run unless one is already queued: one chain per
 * shop, however often install, the settings and the job itself ask (a time
 * zone changed meanwhile takes effect from the run after the queued one).
 */
export async function scheduleDailyMail(client: Db | Tx, shopId: string, timezone: string, now = new Date()) {
  const queued = await client.job.findFirst({
    where: { type: JOB, status: "queued", uniqueKey: { startsWith: `${JOB}:${shopId}:` } },
    select: { runAt: true },
  });
  if (queued) return queued.runAt;
  const runAt = nextRunAt(timezone, now);
  await enqueueJob(
    client,
    JOB,
    { shopId, runAt: runAt.toISOString() },
    { runAt, uniqueKey: `${JOB}:${shopId}:${runAt.toISOString()}` },
  );
  return runAt;
}

/**
 * The job's plan: today's e-mails composed outside any transaction (no
 * render under SQLite's write lock), and the write that queues them and the
 * next run (null: the shop is gone, and its chain ends).
 */
export async function planDailyMail(
  db: Db,
  payload: { shopId: string; runAt: string },
  now = new Date(),
): Promise<((tx: Tx) => Promise<number>) | null> {
  const shop = await db.shop.findUnique({ where: { id: payload.shopId }, select: shopSelect });
  if (!shop || shop.uninstalledAt) return null;
  // The day of the slot, not of the moment the worker got to it (a late run reports the same period).
  const today = localDay(new Date(payload.runAt), shop.timezone);
  const mails = await composePayoutReminders(db, shop, today, now);
  const period = digestPeriod(digestModeOf(shopSettingsObject(shop.settings)), today);
  if (period) mails.push(...(await composeDigest(db, shop, period)));
  return async (tx) => {
    const queued = await queueEmails(tx, mails);
    await scheduleDailyMail(tx, shop.id, shop.timezone, new Date(Math.max(now.getTime(), Date.parse(payload.runAt))));
    return queued;
  };
}

/** The job's two steps, as the worker runs them (tests): the e-mails it queued. */
export async function runDailyMail(db: Db, payload: { shopId: string; runAt: string }, now = new Date()) {
  const write = await planDailyMail(db, payload, now);
  return write ? db.$transaction(write) : 0;
}

/**
 * Affiliates who have approved commission not yet paid and no payout method
 * of their own that the shop offers (none chosen, one the shop stopped
 * offering, PayPal without an address; payouts/payout-method-for.ts): a
 * reminder, at most once per REMINDER_EVERY_DAYS.
 */
export async function composePayoutReminders(
  reader: Tx,
  shop: ShopRow & { timezone: string },
  today: string,
  now = new Date(),
): Promise<OutgoingEmail[]> {
  const payment = paymentSettingsOf(shop.settings);
  const owed = await reader.commission.groupBy({
    by: ["affiliateId", "currency"],
    where: { shopId: shop.id, status: "approved", payoutId: null, affiliate: { status: "approved" } },
    _sum: { amount: true },
  });
  const positive = owed.filter((row) => (row._sum.amount ?? 0) > 0);
  if (positive.length === 0) return [];
  const owedIds = [...new Set(positive.map((r) => r.affiliateId))];
  const methods = await methodsOfAffiliates(reader, shop.id, owedIds, payment);
  const unchosen = owedIds.filter((id) => methods.get(id)?.source !== "choice");
  if (unchosen.length === 0) return [];
  const affiliates = [];
  for (const part of chunks(unchosen, 500)) {
    affiliates.push(
      ...(await reader.affiliate.findMany({
        where: { shopId: shop.id, id: { in: part } },
        select: notificationAffiliateSelect,
      })),
    );
  }
  const since = new Date(now.getTime() - (REMINDER_EVERY_DAYS - 0.5) * DAY_MS);
  const settingsUrl = `${accountOriginFor(shop)}/account/payouts`;
  const mails: OutgoingEmail[] = [];
  for (const affiliate of affiliates) {
    const recent = await reader.outboxEmail.findFirst({
      where: {
        shopId: shop.id,
        kind: "affiliate.payout_reminder",
        toAddress: affiliate.email.toLowerCase(),
        createdAt: { gte: since },
      },
      select: { id: true },
    });
    if (recent) continue;
    const language = languageOf(affiliate, shop);
    const balance = positive
      .filter((r) => r.affiliateId === affiliate.id)
      .map((r) => formatMoneyIn(language.tag, r._sum.amount ?? 0, r.currency))
      .join(", ");
    const mail = await prepareNotification(reader, {
      shop,
      key: "affiliate.payout_reminder",
      to: affiliate.email,
      language,
      values: { ...affiliateValues(shop, affiliate), "balance.amount": balance, settings_url: settingsUrl },
      dedupeBy: `payout-reminder:${affiliate.id}:${today}:affiliate.payout_reminder`,
    });
    if (mail) mails.push(mail);
  }
  return mails;
}

/** The figures of one period in the shop's time zone (sales and commission in the shop's currency). */
export async function digestFigures(
  tx: Pick<Tx, "click" | "order" | "commission" | "affiliate">,
  shop: { id: string; timezone: string; currency: string },
  period: DigestPeriod,
) {
  const from = startOfShopDay(period.first, shop.timezone)!;
  const to = startOfShopDay(period.end, shop.timezone)!;
  const [clicks, sales, commission, pending] = await Promise.all([
    tx.click.count({ where: { shopId: shop.id, createdAt: { gte: from, lt: to } } }),
    tx.order.aggregate({
      where: {
        shopId: shop.id,
        affiliateId: { not: null },
        status: { notIn: ["denied", "void"] },
        currency: shop.currency,
        placedAt: { gte: from, lt: to },
      },
      _count: { _all: true },
      _sum: { subtotal: true },
    }),
    tx.commission.aggregate({
      where: {
        shopId: shop.id,
        status: { notIn: ["denied", "void"] },
        currency: shop.currency,
        createdAt: { gte: from, lt: to },
      },
      _sum: { amount: true },
    }),
    tx.affiliate.count({ where: { shopId: shop.id, status: "pending" } }),
  ]);
  return {
    clicks,
    sales: sales._count._all,
    revenue: sales._sum.subtotal ?? 0,
    commission: commission._sum.amount ?? 0,
    pending,
  };
}

export async function composeDigest(
  reader: Tx,
  shop: ShopRow & { timezone: string; currency: string },
  period: DigestPeriod,
): Promise<OutgoingEmail[]> {
  const figures = await digestFigures(reader, shop, period);
  const language = shopLanguage(shop.language);
  // Calendar days, shown as they are (noon UTC keeps any zone's formatter on the same day).
  const noon = (day: string) => new Date(`${day}T12:00:00Z`);
  const range = new Intl.DateTimeFormat(language.tag, { dateStyle: "medium", timeZone: "UTC" });
  const values = {
    "shop.name": shop.name,
    "shop.url": shop.url,
    "digest.period":
      period.first === period.last
        ? formatDateIn(language.tag, noon(period.first), "UTC")
        : range.formatRange(noon(period.first), noon(period.last)),
    "digest.clicks": formatNumberIn(language.tag, figures.clicks),
    "digest.sales": formatNumberIn(language.tag, figures.sales),
    "digest.revenue": formatMoneyIn(language.tag, figures.revenue, shop.currency),
    "digest.commission": formatMoneyIn(language.tag, figures.commission, shop.currency),
    "digest.pending": formatNumberIn(language.tag, figures.pending),
    admin_url: `${getConfig().appUrl}/admin`,
  };
  const mails: OutgoingEmail[] = [];
  for (const to of await merchantRecipients(reader, shop, "merchant.digest")) {
    const mail = await prepareNotification(reader, {
      shop,
      key: "merchant.digest",
      to,
      language,
      values,
      dedupeBy: `digest:${shop.id}:${period.first}:${period.end}:merchant.digest`,
    });
    if (mail) mails.push(mail);
  }
  return mails;
}
