import { currencyExponent } from "../../lib/money";
import { convertMinor, paypalExponent, rateFor, type RateEntry } from "./exchange-rate";

// Paying a payout in the affiliate's currency (ADR 052). Pure: what a payout
// that leaves pending pays in the affiliate's currency, or why it must wait.
// The shop's money (commissions, the payout's own amount) never changes.

/**
 * How old a rate may be and still pay: 7 days. Merchants who enter rates by
 * hand do so about weekly; an older rate has drifted further than a payout
 * should silently absorb, so the payout waits and the screens say why.
 */
export const RATE_MAX_AGE_HOURS = 7 * 24;

/**
 * Methods that pay in the affiliate's currency. Store credit, gift cards and
 * discount codes are Shopify money in the shop's currency: never converted.
 */
export const CONVERTING_METHODS = ["paypal", "manual", "csv"] as const;

export function convertsIn(method: string): boolean {
  return (CONVERTING_METHODS as readonly string[]).includes(method);
}

export interface MerchantRate extends RateEntry {
  /** Who entered it (staff name or e-mail). */
  by: string;
}

export interface PayoutToConvert {
  /** Minor units of `currency` (the shop's money). */
  amount: number;
  currency: string;
  method: string;
}

export type PayoutConversion =
  | { kind: "none" }
  | {
      kind: "convert";
      currency: string;
      /** Minor units of `currency` by ISO 4217 digits. */
      amount: number;
      rate: string;
      source: string;
      by: string;
      at: string;
    }
  | { kind: "wait"; reason: "rate_missing" | "rate_stale"; currency: string };

/**
 * The affiliate's currency applies when it is allowed now, differs from the
 * payout's and the payout is in the shop's currency (a payout already in
 * another currency, from before, is paid as it is). PayPal takes HUF, JPY and
 * TWD whole: the amount is rounded to PayPal's digits, then kept in ISO minor
 * units so every screen reads it the same way.
 */
export function payoutConversion(input: {
  payout: PayoutToConvert;
  shopCurrency: string;
  /** The affiliate's choice (null: the shop's). */
  payoutCurrency: string | null;
  /** What Settings › Payment allows besides the shop's currency. */
  allowed: readonly string[];
  rates: readonly MerchantRate[];
  now: Date;
  maxAgeHours?: number;
}): PayoutConversion {
  const { payout, shopCurrency, payoutCurrency } = input;
  if (!payoutCurrency || payoutCurrency === payout.currency) return { kind: "none" };
  if (payout.currency !== shopCurrency || !input.allowed.includes(payoutCurrency)) return { kind: "none" };
  if (!convertsIn(payout.method)) return { kind: "none" };
  const answer = rateFor(input.rates, shopCurrency, payoutCurrency, input.now, input.maxAgeHours ?? RATE_MAX_AGE_HOURS);
  if (!answer.ok) return { kind: "wait", reason: answer.reason, currency: payoutCurrency };
  return {
    kind: "convert",
    currency: payoutCurrency,
    amount: convertedMinor(payout.amount, shopCurrency, payoutCurrency, answer.rate, payout.method),
    rate: answer.rate,
    source: answer.source,
    by: answer.entry.by,
    at: answer.at,
  };
}

/** `amount` converted, in ISO minor units of `to`, rounded to the digits the method pays in. */
export function convertedMinor(amount: number, from: string, to: string, rate: string, method: string): number {
  if (method !== "paypal") return convertMinor(amount, from, to, rate);
  const whole = convertMinor(amount, from, to, rate, paypalExponent);
  return whole * 10 ** (currencyExponent(to) - paypalExponent(to));
}

/** Whether a pending payout waits for a rate (the lists' and Pay's hold; the method is not chosen yet). */
export function rateHold(
  input: Omit<Parameters<typeof payoutConversion>[0], "payout"> & {
    payout: Omit<PayoutToConvert, "method">;
  },
): Extract<PayoutConversion, { kind: "wait" }> | null {
  const answer = payoutConversion({ ...input, payout: { ...input.payout, method: "paypal" } });
  return answer.kind === "wait" ? answer : null;
}
