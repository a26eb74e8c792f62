import { getConfig } from "../../config.server";
import type { Tx } from "../../db/transaction";
import { chooseAffiliateLanguage } from "../../i18n/choose-language";
import { formatMoneyIn } from "../../i18n/format";
import type { LanguageInfo } from "../../i18n/language-table";
import { newToken } from "../auth/single-use-token";
import { onEveryEvent } from "../events/event-subscriber";
import type { DomainEvent } from "../events/event-types";
import { accountOriginFor } from "../portal/portal-context.server";
import type { NotificationKey } from "./catalogue";
import {
  prepareNotification,
  queueNotification,
  shopLanguage,
  writeNotification,
  type PreparedNotification,
} from "./compose-notification.server";
import { merchantRecipients } from "./merchant-recipients.server";

// The e-mail subscriber of domain events (app/worker/dispatch-event.server.ts): which
// notifications an event causes, to whom, with which values. It reads and
// composes before the dispatch job's transaction and returns the writes
// that transaction makes (no template renders under SQLite's write lock);
// every e-mail is keyed by event id and recipient, checked again as it is
// written, so a replayed event queues nothing new.

/** How long the link of an affiliate's invite works. */
export const AFFILIATE_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const notificationShopSelect = {
  id: true,
  name: true,
  url: true,
  domain: true,
  language: true,
  adminEmail: true,
  portalDomain: true,
  referralParam: true,
  settings: true,
} as const;

export type ShopRow = {
  id: string;
  name: string;
  url: string;
  domain: string;
  language: string;
  adminEmail: string;
  portalDomain: string | null;
  referralParam: string;
  settings: string;
};

export const notificationAffiliateSelect = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  referralCode: true,
  language: true,
  parentId: true,
  status: true,
} as const;

export type AffiliateRow = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  referralCode: string;
  language: string | null;
  parentId: string | null;
  status: string;
};

export function portalUrl(shop: Pick<ShopRow, "domain" | "portalDomain">) {
  if (shop.portalDomain) return accountOriginFor(shop);
  return `${getConfig().appUrl}/portal/${shop.domain.replace(/\.myshopify\.com$/, "")}`;
}

function shopValues(shop: ShopRow) {
  return { "shop.name": shop.name, "shop.url": shop.url };
}

export function affiliateValues(shop: ShopRow, affiliate: AffiliateRow) {
  return {
    ...shopValues(shop),
    "affiliate.first_name": affiliate.firstName,
    "affiliate.last_name": affiliate.lastName,
    "affiliate.email": affiliate.email,
    "affiliate.referral_code": affiliate.referralCode,
    portal_url: portalUrl(shop),
  };
}

export function languageOf(affiliate: AffiliateRow, shop: ShopRow): LanguageInfo {
  return chooseAffiliateLanguage({ saved: affiliate.language, shop: shop.language }, { pseudo: false });
}

interface Context {
  /** Reads, before the write transaction. */
  tx: Tx;
  event: DomainEvent;
  shop: ShopRow;
  /** The e-mails to store, each with a write that goes with it (an invite's token). */
  mails: { mail: PreparedNotification; with?: (tx: Tx) => Promise<unknown> }[];
}

async function toAffiliate(
  ctx: Context,
  key: NotificationKey,
  affiliate: AffiliateRow,
  values: Record<string, string>,
  withMail?: (tx: Tx) => Promise<unknown>,
) {
  const mail = await prepareNotification(ctx.tx, {
    shop: ctx.shop,
    key,
    to: affiliate.email,
    language: languageOf(affiliate, ctx.shop),
    values: { ...affiliateValues(ctx.shop, affiliate), ...values },
    dedupeBy: `${ctx.event.id}:${key}`,
  });
  if (mail) ctx.mails.push({ mail, with: withMail });
}

/** The shop's admin address and every user who opted in to this kind (merchantRecipients). */
async function toMerchant(ctx: Context, key: NotificationKey, values: Record<string, string>) {
  for (const to of await merchantRecipients(ctx.tx, ctx.shop, key)) {
    const mail = await prepareNotification(ctx.tx, {
      shop: ctx.shop,
      key,
      to,
      language: shopLanguage(ctx.shop.language),
      values: { ...shopValues(ctx.shop), ...values },
      dedupeBy: `${ctx.event.id}:${key}`,
    });
    if (mail) ctx.mails.push({ mail });
  }
}

async function loadAffiliate(tx: Tx, shopId: string, id: string) {
  return tx.affiliate.findFirst({ where: { id, shopId }, select: notificationAffiliateSelect });
}

const money = (language: LanguageInfo, amount: number, currency: string) =>
  formatMoneyIn(language.tag, amount, currency);

async function onAffiliateCreated(ctx: Context, affiliate: AffiliateRow, source: string | undefined) {
  const { tx, shop } = ctx;
  if (source === "signup") {
    if (affiliate.status === "approved")
      await toAffiliate(ctx, "affiliate.approved", affiliate, approvedValues(shop, affiliate));
    else {
      await toAffiliate(ctx, "affiliate.signup", affiliate, {});
      await toMerchant(ctx, "merchant.signup", {
        ...affiliateValues(shop, affiliate),
        admin_url: `${getConfig().appUrl}/admin/affiliates/${affiliate.id}`,
      });
    }
  } else if (source === "admin") {
    // Added by hand: an invite with a link to set a password (a long-lived reset token).
    // The token is stored with the e-mail, and only if the e-mail is.
    const { token, tokenHash, expiresAt } = newToken(AFFILIATE_INVITE_TTL_MS);
    await toAffiliate(
      ctx,
      "affiliate.invite",
      affiliate,
      { invite_url: `${portalUrl(shop)}/reset?token=${token}` },
      (writer) =>
        writer.affiliateToken.create({ data: { affiliateId: affiliate.id, purpose: "reset", tokenHash, expiresAt } }),
    );
  }
  if (affiliate.parentId) {
    const parent = await loadAffiliate(tx, shop.id, affiliate.parentId);
    if (parent)
      await toAffiliate(ctx, "affiliate.recruit", parent, {
        "recruit.name": `${affiliate.firstName} ${affiliate.lastName}`.trim(),
      });
  }
}

export function approvedValues(shop: ShopRow, affiliate: AffiliateRow) {
  const url = shop.url.replace(/\/$/, "");
  return { referral_link: `${url}/?${shop.referralParam}=${encodeURIComponent(affiliate.referralCode)}` };
}

/**
 * Event subscriber: reads with `reader` and composes the e-mails the event
 * causes, and returns the write that stores them (app/worker/dispatch-event.server.ts).
 */
async function notifyByEmail(reader: Tx, event: DomainEvent) {
  const shop = await reader.shop.findUnique({ where: { id: event.shopId }, select: notificationShopSelect });
  if (!shop) return undefined;
  const ctx: Context = { tx: reader, event, shop, mails: [] };
  await composeFor(ctx);
  if (ctx.mails.length === 0) return undefined;
  return async (tx: Tx) => {
    for (const { mail, with: alsoWrite } of ctx.mails) {
      if ((await writeNotification(tx, mail)) && alsoWrite) await alsoWrite(tx);
    }
  };
}

async function composeFor(ctx: Context): Promise<void> {
  const { tx, event, shop } = ctx;
  if (event.type === "referral.created") return;
  const affiliate = await loadAffiliate(tx, shop.id, event.data.affiliateId);
  if (!affiliate) return;
  const language = languageOf(affiliate, shop);
  switch (event.type) {
    case "affiliate.created":
      return onAffiliateCreated(ctx, affiliate, event.data.source);
    case "affiliate.approved":
      return toAffiliate(ctx, "affiliate.approved", affiliate, approvedValues(shop, affiliate));
    case "affiliate.denied":
      return toAffiliate(ctx, "affiliate.denied", affiliate, {});
    case "sale.credited": {
      const order = await tx.order.findFirst({
        where: { id: event.data.orderId, shopId: shop.id },
        select: { name: true, subtotal: true, currency: true },
      });
      if (!order) return;
      const merchantLanguage = shopLanguage(shop.language);
      return toMerchant(ctx, "merchant.sale", {
        ...affiliateValues(shop, affiliate),
        "sale.order": order.name,
        "sale.amount": money(merchantLanguage, order.subtotal, order.currency),
        admin_url: `${getConfig().appUrl}/admin/sales`,
      });
    }
    case "commission.created":
    case "commission.updated": {
      const c = event.data;
      const order = await tx.order.findFirst({ where: { id: c.orderId, shopId: shop.id }, select: { name: true } });
      const orderName = order?.name ?? "";
      if (event.type === "commission.updated" && event.data.status === "void") {
        // The order was cancelled: the whole line is gone.
        return toAffiliate(ctx, "affiliate.commission_reversed", affiliate, {
          "commission.order": orderName,
          "commission.original": money(language, c.amount, c.currency),
          "commission.reduction": money(language, -c.amount, c.currency),
          "commission.remaining": money(language, 0, c.currency),
        });
      }
      if (event.type === "commission.updated") {
        if (event.data.status !== "approved") return;
        return toAffiliate(ctx, "affiliate.commission_approved", affiliate, {
          "commission.amount": money(language, c.amount, c.currency),
          "commission.order": orderName,
        });
      }
      if (c.kind === "sale") {
        return toAffiliate(ctx, "affiliate.commission", affiliate, {
          "commission.amount": money(language, c.amount, c.currency),
          "commission.order": orderName,
        });
      }
      // A refund or cancellation: a negative commission on the same order.
      const rows = await tx.commission.findMany({
        where: { orderId: c.orderId, affiliateId: affiliate.id, currency: c.currency, status: { not: "void" } },
        select: { kind: true, amount: true, level: true },
      });
      const original = rows.filter((r) => r.kind === "sale").reduce((sum, r) => sum + r.amount, 0);
      const remaining = rows.reduce((sum, r) => sum + r.amount, 0);
      return toAffiliate(ctx, "affiliate.commission_reversed", affiliate, {
        "commission.order": orderName,
        "commission.original": money(language, original, c.currency),
        "commission.reduction": money(language, c.amount, c.currency),
        "commission.remaining": money(language, remaining, c.currency),
      });
    }
    case "payout.paid":
    case "payout.failed": {
      const p = event.data;
      const values = { "payout.amount": money(language, p.amount, p.currency), "payout.method": methodName(p.method) };
      if (event.type === "payout.paid") {
        await toAffiliate(ctx, "affiliate.payout_sent", affiliate, values);
        if (!event.data.previousStatus) return;
        // PayPal paid a payout counted failed or cancelled: the merchant must know.
        const merchantLanguage = shopLanguage(shop.language);
        return toMerchant(ctx, "merchant.payout_reconciled", {
          ...affiliateValues(shop, affiliate),
          "payout.amount": money(merchantLanguage, p.amount, p.currency),
          "payout.method": methodName(p.method),
          "payout.overpaid": money(merchantLanguage, event.data.overpaid ?? 0, p.currency),
          admin_url: `${getConfig().appUrl}/admin/payouts/${p.payoutId}`,
        });
      }
      const reason = event.data.reason;
      await toAffiliate(ctx, "affiliate.payout_failed", affiliate, { ...values, "payout.reason": reason });
      const merchantLanguage = shopLanguage(shop.language);
      return toMerchant(ctx, "merchant.payout_failed", {
        ...affiliateValues(shop, affiliate),
        "payout.amount": money(merchantLanguage, p.amount, p.currency),
        "payout.method": methodName(p.method),
        "payout.reason": reason,
        admin_url: `${getConfig().appUrl}/admin/payouts`,
      });
    }
    case "affiliate.tier_changed": {
      const move = event.data;
      const campaigns = await tx.campaign.findMany({
        where: { shopId: shop.id, id: { in: [move.fromCampaignId, move.toCampaignId] } },
        select: { id: true, name: true },
      });
      const name = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "";
      return toAffiliate(ctx, "affiliate.tier_changed", affiliate, {
        "tier.name": name(move.toCampaignId),
        "tier.previous": name(move.fromCampaignId),
      });
    }
    default:
      return;
  }
}

const METHOD_NAMES: Record<string, string> = {
  paypal: "PayPal",
  manual: "bank transfer",
  csv: "bank transfer",
  store_credit: "store credit",
  discount_code: "discount code",
};

function methodName(method: string) {
  return METHOD_NAMES[method] ?? method;
}

/** Event subscriber (app/worker/dispatch-event.server.ts): the e-mails every event causes. */
export const emailSubscriber = onEveryEvent(notifyByEmail);

/** "coupon code assigned": queued by the coupons.create job in the transaction that records the code. */
export async function notifyCouponAssigned(tx: Tx, couponId: string, affiliateId: string, code: string) {
  const affiliate = await tx.affiliate.findUnique({
    where: { id: affiliateId },
    select: { ...notificationAffiliateSelect, shopId: true },
  });
  if (!affiliate) return null;
  const shop = await tx.shop.findUnique({ where: { id: affiliate.shopId }, select: notificationShopSelect });
  if (!shop) return null;
  return queueNotification(tx, {
    shop,
    key: "affiliate.coupon",
    to: affiliate.email,
    language: languageOf(affiliate, shop),
    values: { ...affiliateValues(shop, affiliate), "coupon.code": code },
    dedupeBy: `coupon:${couponId}:affiliate.coupon`,
  });
}
