import { currencyExponent } from "../../lib/money";
import { paypalExponent } from "../currency/exchange-rate";
import type { CreatePayoutRequest, TransactionStatus } from "./paypal-client.server";

// Pure pieces of a PayPal batch: the request body built from our payouts,
// and what each PayPal item state means for a payout.

export interface SendablePayout {
  id: string;
  amount: number;
  currency: string;
  paypalEmail: string;
}

/**
 * An amount in minor units as PayPal's decimal string ("1234" USD → "12.34",
 * JPY stays whole). A HUF or TWD amount in whole units (a converted payout
 * is rounded so) is written without the decimals PayPal refuses for them.
 */
export function paypalAmount(minor: number, currency: string): string {
  const iso = currencyExponent(currency);
  const pp = paypalExponent(currency);
  const drop = 10 ** (iso - pp);
  const whole = pp < iso && minor % drop === 0;
  const digits = whole ? pp : iso;
  const units = whole ? minor / drop : minor;
  if (digits === 0) return String(units);
  const sign = units < 0 ? "-" : "";
  const text = String(Math.abs(units)).padStart(digits + 1, "0");
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * POST /v1/payments/payouts body: sender_batch_id is our batch id (PayPal
 * refuses a second batch with it for 30 days), one item per payout with its
 * id as sender_item_id, in the payout's own currency.
 */
export function buildPayoutRequest(
  batchId: string,
  payouts: readonly SendablePayout[],
  texts: { subject: string; note: string },
): CreatePayoutRequest {
  return {
    sender_batch_header: {
      sender_batch_id: batchId,
      recipient_type: "EMAIL",
      email_subject: texts.subject.slice(0, 255),
      note: texts.note.slice(0, 1000),
    },
    items: payouts.map((p) => ({
      recipient_type: "EMAIL",
      amount: { currency: p.currency, value: paypalAmount(p.amount, p.currency) },
      receiver: p.paypalEmail,
      sender_item_id: p.id,
      note: texts.note.slice(0, 4000),
    })),
  };
}

export type ItemOutcome =
  { kind: "paid" } | { kind: "failed"; reasonKey: string } | { kind: "progress" } | { kind: "unknown" };

/**
 * What a PayPal item state means for our payout. SUCCESS pays; FAILED,
 * RETURNED (unclaimed for 30 days), BLOCKED, REFUNDED and REVERSED give the
 * money back to the merchant, so the payout fails and its lines return to
 * the balance; PENDING, UNCLAIMED, ONHOLD and HELD are on the way (history
 * only). HELD is named in PayPal's webhook events though not in the enum of
 * the OpenAPI file.
 */
export function itemOutcome(status: TransactionStatus | "HELD" | string | undefined): ItemOutcome {
  switch (status) {
    case "SUCCESS":
      return { kind: "paid" };
    case "FAILED":
    case "RETURNED":
    case "BLOCKED":
    case "REFUNDED":
    case "REVERSED":
      return { kind: "failed", reasonKey: `Payouts:paypal.failure.${status}` };
    case "PENDING":
    case "UNCLAIMED":
    case "ONHOLD":
    case "HELD":
    case "NEW":
      return { kind: "progress" };
    default:
      return { kind: "unknown" };
  }
}
