import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { paymentSettingsOf } from "./payment-settings";
import type { MerchantRate } from "../currency/payout-conversion";
import type { RateEntryForm } from "../currency/rate-entry-schema";

// The merchant's rate table (Settings › Payment). Entries are only added:
// a payout keeps the rate it was converted at, and the table shows which
// rate was true when.

/**
 * The newest entries up to now, as the pure calculator reads them: it takes
 * the newest of a pair no older than RATE_MAX_AGE_HOURS, and an older one
 * tells "stale" from "missing".
 */
export async function freshRates(client: Tx | ShopDb, shopId: string, now = new Date()): Promise<MerchantRate[]> {
  const rows = await client.exchangeRate.findMany({
    where: { shopId, at: { lte: now } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: 1000,
  });
  return rows.map((r) => ({
    from: r.fromCurrency,
    to: r.toCurrency,
    rate: r.rate,
    at: r.at.toISOString(),
    source: r.source,
    by: r.createdBy,
  }));
}

/** The newest entries of the table (the settings page lists them). */
export async function recentRates(db: ShopDb, limit = 20) {
  return db.exchangeRate.findMany({
    where: { shopId: db.$shopId },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, fromCurrency: true, toCurrency: true, rate: true, at: true, source: true, createdBy: true },
  });
}

/** Adds the rate the merchant typed, true now; the currency must be one the shop allows. */
export async function addMerchantRate(db: ShopDb, form: RateEntryForm, by: string, now = new Date()) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { currency: true, settings: true },
  });
  const allowed = paymentSettingsOf(shop.settings).payoutCurrencies;
  if (form.currency === shop.currency || !allowed.includes(form.currency as never)) {
    const text = msg("Settings.Payment:rates.errors.notAllowed", { currency: form.currency });
    throw new AppError("validation_failed", text, { fields: { currency: text } });
  }
  return db.exchangeRate.create({
    data: {
      shopId: db.$shopId,
      fromCurrency: shop.currency,
      toCurrency: form.currency,
      rate: normalRate(form.rate),
      at: now,
      source: "merchant",
      createdBy: by.slice(0, 200),
    },
    select: { id: true, fromCurrency: true, toCurrency: true, rate: true, at: true, source: true, createdBy: true },
  });
}

/** "001.50" → "1.5": the text a payout stores and the screens show. */
function normalRate(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  const w = whole!.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  return f ? `${w}.${f}` : w;
}
