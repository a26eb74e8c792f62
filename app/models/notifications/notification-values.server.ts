import { getConfig } from "../../config.server";
import type { TFunction } from "i18next";
import { primeRead } from "../../db/memo-reads.server";
import type { Tx } from "../../db/transaction";
import { chooseAffiliateLanguage } from "../../i18n/choose-language";
import { formatMoneyIn } from "../../i18n/format";
import { fixedT } from "../../i18n/i18next.server";
import type { LanguageInfo } from "../../i18n/language-table";
import { accountOriginFor } from "../portal/portal-context.server";

// The rows an e-mail is written from and the template values every kind
// shares (the shop's, the affiliate's), so the one-by-one dispatch, the
// batch dispatcher and the jobs that queue a notification themselves fill a
// template the same way.

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

export type Values = Record<string, string>;

export function portalUrl(shop: Pick<ShopRow, "domain" | "portalDomain">) {
  if (shop.portalDomain) return accountOriginFor(shop);
  return `${getConfig().appUrl}/portal/${shop.domain.replace(/\.myshopify\.com$/, "")}`;
}

export function shopValues(shop: ShopRow): Values {
  return { "shop.name": shop.name, "shop.url": shop.url };
}

export function affiliateValues(shop: ShopRow, affiliate: AffiliateRow): Values {
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

export async function loadAffiliate(reader: Tx, shopId: string, id: string): Promise<AffiliateRow | null> {
  return reader.affiliate.findFirst(loadAffiliateArgs(shopId, id));
}

const loadAffiliateArgs = (shopId: string, id: string) => ({
  where: { id, shopId },
  select: notificationAffiliateSelect,
});

/**
 * The order an e-mail names, read the same way by every kind: a dispatch
 * batch reads each distinct read once (memo-reads.server.ts), so an order's
 * sale and commission e-mails share one read instead of one per kind.
 */
export function mailOrder(reader: Tx, shopId: string, orderId: string) {
  return reader.order.findFirst(mailOrderArgs(shopId, orderId));
}

const MAIL_ORDER_SELECT = { name: true, subtotal: true, currency: true } as const;
const mailOrderArgs = (shopId: string, orderId: string) => ({
  where: { id: orderId, shopId },
  select: MAIL_ORDER_SELECT,
});

/**
 * What a dispatch batch's e-mails will read one event at a time, read with
 * one statement per shop and kind of row: the orders they name (mailOrder)
 * and the affiliates they go to (loadAffiliate). Each of those reads then
 * finds its row in the batch's reader (memo-reads.server.ts). An order
 * burst's batch used to read them one by one, each read costing Prisma's
 * query compiler more than SQLite.
 */
export async function primeMailReads(reader: Tx, events: readonly { shopId: string; data: object }[]) {
  const ids = (field: "orderId" | "affiliateId") =>
    events.flatMap((event) => {
      const id: unknown = (event.data as Record<string, unknown>)[field];
      return typeof id === "string" ? [{ shopId: event.shopId, id }] : [];
    });
  await primeByIds(reader, "order", ids("orderId"), MAIL_ORDER_SELECT, mailOrderArgs);
  await primeByIds(reader, "affiliate", ids("affiliateId"), notificationAffiliateSelect, loadAffiliateArgs);
}

type FindMany = { findMany(args: unknown): Promise<Record<string, unknown>[]> };

async function primeByIds(
  reader: Tx,
  model: "order" | "affiliate",
  wanted: readonly { shopId: string; id: string }[],
  select: Readonly<Record<string, boolean>>,
  argsOf: (shopId: string, id: string) => unknown,
) {
  const byShop = new Map<string, Set<string>>();
  for (const { shopId, id } of wanted) byShop.set(shopId, (byShop.get(shopId) ?? new Set<string>()).add(id));
  for (const [shopId, ids] of byShop) {
    const rows = await (reader[model] as unknown as FindMany).findMany({
      where: { shopId, id: { in: [...ids] } },
      select: { ...select, id: true },
    });
    // The single read's answer: its own columns only (findFirst's null when there is no row).
    const found = new Map(
      rows.map((row) => {
        const { id, ...rest } = row;
        return [id as string, select.id ? row : rest] as const;
      }),
    );
    for (const id of ids) primeRead(reader, model, "findFirst", argsOf(shopId, id), found.get(id) ?? null);
  }
}

export const money = (language: LanguageInfo, amount: number, currency: string) =>
  formatMoneyIn(language.tag, amount, currency);

/** A link into the merchant's admin (the app's own URL). */
export const adminUrl = (path: string) => `${getConfig().appUrl}/admin${path}`;

const methodTranslators = new Map<string, TFunction>();

/**
 * How a payout was made, in the recipient's language: merchants read the
 * words their mails put after "by" (Mails:payoutMethods: "by hand", "per
 * CSV-Datei"); affiliates the labels of their payouts page (Account.Payouts,
 * which every portal language has).
 */
export function methodName(language: LanguageInfo, method: string, audience: "merchant" | "affiliate"): string {
  const [namespace, path] = audience === "merchant" ? ["Mails", "payoutMethods"] : ["Account.Payouts", "methods"];
  const cacheKey = `${namespace}|${language.code}`;
  let t = methodTranslators.get(cacheKey);
  if (!t) {
    t = fixedT(language, [namespace]);
    methodTranslators.set(cacheKey, t);
  }
  return t(`${namespace}:${path}.${method}`, { defaultValue: method, interpolation: { escapeValue: false } });
}

// The sentence of the "payment sent" e-mail that says how the affiliate was
// paid, whole per method so each language words it grammatically (a method
// name dropped into one sentence cannot be). A payout the merchant paid
// outside the app (by hand, a CSV file) says only that the store paid: the
// app does not know whether that was a bank transfer.
const SENTENCE_METHODS = new Set(["paypal", "store_credit", "discount_code", "gift_card", "bank"]);
// The methods whose sentence carries the code the affiliate was paid with.
const CODE_METHODS = new Set(["discount_code", "gift_card"]);
const accountTranslators = new Map<string, TFunction>();

export function payoutSentence(
  language: LanguageInfo,
  payout: { method: string; amount: string; discountCode?: string | null },
): string {
  let t = accountTranslators.get(language.code);
  if (!t) {
    t = fixedT(language, ["Account.Common"]);
    accountTranslators.set(language.code, t);
  }
  // A discount-code or gift-card payout without its code cannot say the code: worded as paid by the store.
  const usable = SENTENCE_METHODS.has(payout.method) && (!CODE_METHODS.has(payout.method) || !!payout.discountCode);
  const key = usable ? payout.method : "other";
  return t(`Account.Common:payoutSent.${key}`, {
    amount: payout.amount,
    code: payout.discountCode ?? "",
    interpolation: { escapeValue: false },
  });
}
