import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { chunks } from "../../lib/chunks";
import { msg, type MessageRef } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { payoutConversion, rateHold, RATE_MAX_AGE_HOURS } from "../currency/payout-conversion";
import { paymentSettingsOf } from "./payment-settings";
import { freshRates } from "./rate-table.server";

// Payouts in the affiliate's currency (ADR 052). Two moments:
// - while pending, a payout whose affiliate asked for a currency with no
//   fresh rate waits, the same way the tax-form hold works: worked out when
//   it matters (the lists, a person's Pay, auto-pay), never stored, so a rate
//   entered takes effect at once;
// - when it leaves pending for a batch, the conversion is written on it once
//   (compare-and-set on payoutAmount being empty), and every send, resend or
//   export of it reads those columns.

export interface RateHold {
  reason: "rate_missing" | "rate_stale";
  currency: string;
}

interface Candidate {
  id: string;
  affiliateId: string;
  amount: number;
  currency: string;
}

async function context(client: Tx | ShopDb, shopId: string, affiliateIds: string[], now: Date) {
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { currency: true, settings: true },
  });
  const allowed = paymentSettingsOf(shop.settings).payoutCurrencies;
  const currencyOf = new Map<string, string | null>();
  if (allowed.length > 0) {
    for (const part of chunks([...new Set(affiliateIds)], 500)) {
      const rows = await client.affiliate.findMany({
        where: { shopId, id: { in: part }, payoutCurrency: { not: null } },
        select: { id: true, payoutCurrency: true },
      });
      for (const r of rows) currencyOf.set(r.id, r.payoutCurrency);
    }
  }
  const rates = currencyOf.size > 0 ? await freshRates(client, shopId, now) : [];
  return { shopCurrency: shop.currency, allowed, currencyOf, rates };
}

/** Payout id → why it waits for a rate, for the pending payouts given. */
export async function rateHolds(
  client: Tx | ShopDb,
  shopId: string,
  payouts: readonly Candidate[],
  now = new Date(),
): Promise<Map<string, RateHold>> {
  const held = new Map<string, RateHold>();
  if (payouts.length === 0) return held;
  const ctx = await context(
    client,
    shopId,
    payouts.map((p) => p.affiliateId),
    now,
  );
  if (ctx.currencyOf.size === 0) return held;
  for (const p of payouts) {
    const hold = rateHold({
      payout: p,
      shopCurrency: ctx.shopCurrency,
      payoutCurrency: ctx.currencyOf.get(p.affiliateId) ?? null,
      allowed: ctx.allowed,
      rates: ctx.rates,
      now,
    });
    if (hold) held.set(p.id, { reason: hold.reason, currency: hold.currency });
  }
  return held;
}

/** The same, for payouts known by id (only pending ones wait). */
export async function rateHoldsOf(client: Tx | ShopDb, shopId: string, payoutIds: readonly string[], now = new Date()) {
  const payouts: Candidate[] = [];
  for (const part of chunks([...new Set(payoutIds)], 500)) {
    payouts.push(
      ...(await client.payout.findMany({
        where: { shopId, id: { in: part }, status: "pending" },
        select: { id: true, affiliateId: true, amount: true, currency: true },
      })),
    );
  }
  return rateHolds(client, shopId, payouts, now);
}

/** A hold's message key and values (the reader's language renders it). */
export function rateHoldRef(hold: RateHold): MessageRef {
  return { key: `Payouts:rateHold.${hold.reason}`, values: { currency: hold.currency, days: RATE_MAX_AGE_HOURS / 24 } };
}

/** The same, as one encoded message. */
export function rateHoldMessage(hold: RateHold): string {
  const ref = rateHoldRef(hold);
  return msg(ref.key, ref.values);
}

/**
 * Writes the conversion on every payout of a batch that has just left
 * pending, once (payoutAmount still empty). A rate that went stale between
 * the hold check and here (the same transaction, milliseconds) is a lost
 * race: 409, nothing changes.
 */
export async function convertBatchPayouts(tx: Tx, shopId: string, batchId: string, method: string, now = new Date()) {
  const payouts = await tx.payout.findMany({
    where: { shopId, batchId, status: "processing", payoutAmount: null },
    select: { id: true, affiliateId: true, amount: true, currency: true },
  });
  if (payouts.length === 0) return 0;
  const ctx = await context(
    tx,
    shopId,
    payouts.map((p) => p.affiliateId),
    now,
  );
  if (ctx.currencyOf.size === 0) return 0;
  let converted = 0;
  for (const p of payouts) {
    const answer = payoutConversion({
      payout: { amount: p.amount, currency: p.currency, method },
      shopCurrency: ctx.shopCurrency,
      payoutCurrency: ctx.currencyOf.get(p.affiliateId) ?? null,
      allowed: ctx.allowed,
      rates: ctx.rates,
      now,
    });
    if (answer.kind === "none") continue;
    if (answer.kind === "wait") throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
    const res = await tx.payout.updateMany({
      where: { id: p.id, shopId, batchId, status: "processing", payoutAmount: null },
      data: {
        payoutCurrency: answer.currency,
        payoutAmount: answer.amount,
        payoutRate: answer.rate,
        payoutRateSource: answer.source,
        payoutRateBy: answer.by,
        payoutRateAt: new Date(answer.at),
      },
    });
    converted += res.count;
  }
  return converted;
}
