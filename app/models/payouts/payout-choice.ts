import { z } from "zod";
import { msg } from "../../i18n/messages";
import { AFFILIATE_METHODS, type AffiliateMethod, type PaymentSettings } from "./payment-settings";

// How an affiliate asks to be paid (/account/payouts): one of the methods the
// merchant offers (Settings › Payment), with a PayPal address for PayPal and
// the merchant's own fields for a bank transfer. Pure: the page derives its
// inputs (required, the IBAN hint) from the same schema the server parses
// with, and the server parses again against the shop's offer of the moment.

/** At most as many fields as Settings › Payment allows (payment-settings.ts). */
export const MAX_BANK_FIELDS = 8;
export const bankFieldName = (index: number) => `bank_${index}`;

export type PayoutOffer = Pick<PaymentSettings, "affiliateMethods" | "bankFields">;

/** A bank field whose label names an IBAN is checked as one (ISO 13616: country, check digits, mod 97). */
export const isIbanLabel = (label: string) => /\biban\b/i.test(label);

export function normalizeIban(value: string): string {
  return value.replace(/[\s-]/g, "").toUpperCase();
}

export function isValidIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, msg("Global:validation.textMax", { max }))
    .optional()
    .transform((v) => v ?? "");

/**
 * What the form posts, before the shop's offer is known: the door parses
 * this; `parsePayoutChoice` then checks it against the offer.
 */
export const payoutChoiceFormSchema = z.object({
  method: z.enum(AFFILIATE_METHODS, { errorMap: () => ({ message: msg("Global:validation.choose") }) }),
  paypalEmail: text(254),
  ...Object.fromEntries(Array.from({ length: MAX_BANK_FIELDS }, (_, i) => [bankFieldName(i), text(200)])),
  current: z
    .string({ required_error: msg("Account.Common:validation.currentPassword") })
    .min(1, msg("Account.Common:validation.currentPassword"))
    .max(200),
}) as z.ZodType<PayoutChoiceForm>;

export type PayoutChoiceForm = {
  method: AffiliateMethod;
  paypalEmail: string;
  current: string;
} & Record<`bank_${number}`, string>;

export type BankDetail = { label: string; value: string };

export type PayoutChoice =
  | { method: "paypal"; paypalEmail: string }
  | { method: "store_credit" }
  | { method: "gift_card" }
  /** `details` null: keep the details saved before (the fields were left empty). */
  | { method: "bank"; details: BankDetail[] | null };

/**
 * The schema of a choice under a shop's offer: the method must be offered,
 * PayPal needs an address, a bank transfer every field the merchant defined
 * (an IBAN field a valid IBAN) unless complete details are saved already and
 * the fields are left empty.
 */
export function payoutChoiceSchema(offer: PayoutOffer, saved: { bankComplete: boolean }) {
  return payoutChoiceFormSchema.transform((form, ctx): PayoutChoice => {
    if (!offer.affiliateMethods.includes(form.method)) {
      ctx.addIssue({ code: "custom", path: ["method"], message: msg("Global:validation.choose") });
      return z.NEVER;
    }
    if (form.method === "paypal") {
      const email = form.paypalEmail.toLowerCase();
      if (!email) {
        ctx.addIssue({
          code: "custom",
          path: ["paypalEmail"],
          message: msg("Account.Common:validation.paypalEmailRequired"),
        });
      } else if (!z.string().email().safeParse(email).success) {
        ctx.addIssue({ code: "custom", path: ["paypalEmail"], message: msg("Account.Common:validation.paypalEmail") });
      }
      return { method: "paypal", paypalEmail: email };
    }
    if (form.method === "store_credit" || form.method === "gift_card") return { method: form.method };
    const values = offer.bankFields.map((_, i) => form[bankFieldName(i) as `bank_${number}`] ?? "");
    if (saved.bankComplete && values.every((v) => v === "")) return { method: "bank", details: null };
    const details = offer.bankFields.map((label, i) => {
      const value = values[i]!;
      const path = [bankFieldName(i)];
      if (!value) ctx.addIssue({ code: "custom", path, message: msg("Global:validation.required") });
      else if (isIbanLabel(label) && !isValidIban(value)) {
        ctx.addIssue({ code: "custom", path, message: msg("Account.Common:validation.iban") });
      }
      return { label, value: isIbanLabel(label) && value ? normalizeIban(value) : value };
    });
    return { method: "bank", details };
  });
}

/** The last four characters of a value, the rest hidden ("•••• 3000"). */
export function maskValue(value: string): string {
  const plain = value.replace(/\s/g, "");
  return plain.length <= 4 ? "••••" : `•••• ${plain.slice(-4)}`;
}

/**
 * The one-line hint the screens show of saved bank details: the IBAN field
 * if there is one, else the first field, masked.
 */
export function bankDetailsMask(details: BankDetail[]): string | null {
  const shown = details.find((d) => isIbanLabel(d.label)) ?? details[0];
  return shown ? `${shown.label} ${maskValue(shown.value)}` : null;
}

/** Whether saved details fill every field the merchant asks for now. */
export function bankDetailsComplete(details: BankDetail[] | null, offer: PayoutOffer): boolean {
  if (!details) return false;
  return offer.bankFields.every((label) => details.some((d) => d.label === label && d.value !== ""));
}
