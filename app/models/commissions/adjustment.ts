import { currencyExponent } from "../../lib/money";

// A merchant's adjustment of an affiliate's commission on an order (ADR 057),
// made by the Shopify Flow action adjust-commission: one new commission line
// of kind "adjustment", never a change to a line that exists. Pure: the
// amount's parsing and the rules of the new line, table-tested.

/** The longest note an adjustment keeps (shown whole on the sale, to the merchant and the affiliate). */
export const NOTE_MAX = 500;
/** The largest adjustment, in minor units: a typo's guard, far above any one order's commission. */
export const MAX_ADJUSTMENT = 100_000_000;

export type AmountResult = { ok: true; minor: number } | { ok: false; problem: string };

/**
 * Flow's decimal amount as minor units of `currency`, exactly (no floating
 * point): 12.5 USD → 1250, -3 JPY → -3. Refused: zero, more decimals than the
 * currency has, anything that is not a plain decimal, or a giant amount.
 */
export function adjustmentMinorUnits(value: number | string, currency: string): AmountResult {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, problem: `amount ${JSON.stringify(value)} is not a decimal number` };
  const [, sign, whole, fraction = ""] = match;
  const exponent = currencyExponent(currency);
  const digits = fraction.replace(/0+$/, "");
  if (digits.length > exponent)
    return {
      ok: false,
      problem:
        exponent === 0 ? `amount: ${currency} has no decimals` : `amount: ${currency} has at most ${exponent} decimals`,
    };
  const minor = Number(whole) * 10 ** exponent + Number(digits.padEnd(exponent, "0") || "0");
  if (minor === 0) return { ok: false, problem: "amount must not be zero" };
  if (!Number.isSafeInteger(minor) || minor > MAX_ADJUSTMENT)
    return { ok: false, problem: `amount is larger than ${MAX_ADJUSTMENT / 10 ** exponent} ${currency}` };
  return { ok: true, minor: sign === "-" ? -minor : minor };
}

export type AdjustmentRule =
  { ok: true; status: "pending" | "approved"; before: number; after: number } | { ok: false; problem: string };

/**
 * The new line's status and the commission before and after, from the
 * affiliate's live lines on the order (not denied or void; `base` is their
 * sale line). The adjustment shares the sale's fate: pending while the sale
 * is (approved or denied with it); approved when the sale is approved or
 * already paid, so the next payout pays (or deducts) it. A denied or voided
 * sale has nothing to adjust, and the commission may not go below zero
 * (refunds and cancellations bring it to zero at the least, too).
 */
export function adjustmentRule(
  base: { status: string },
  lines: readonly { amount: number; status: string }[],
  amount: number,
): AdjustmentRule {
  if (base.status === "denied" || base.status === "void") return { ok: false, problem: base.status };
  const before = lines
    .filter((l) => l.status !== "denied" && l.status !== "void")
    .reduce((sum, l) => sum + l.amount, 0);
  const after = before + amount;
  if (after < 0) return { ok: false, problem: "negative" };
  return { ok: true, status: base.status === "pending" ? "pending" : "approved", before, after };
}
