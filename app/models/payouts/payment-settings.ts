import { z } from "zod";
import { msg } from "../../i18n/messages";
import { PAYPAL_CURRENCIES } from "../currency/exchange-rate";
import { withShopSetting } from "../settings/shop-settings";
import { PAYOUT_METHODS } from "./payout-states";

// Settings › Payment, kept under the "payment" key of Shop.settings (JSON).
// Pure: the settings form and the server parse with the same schema, and a
// shop that never saved the form reads the defaults.

/** The ways an affiliate can ask to be paid (what the affiliate fills in on /account/payouts). */
export const AFFILIATE_METHODS = ["paypal", "store_credit", "gift_card", "bank"] as const;
export type AffiliateMethod = (typeof AFFILIATE_METHODS)[number];

export const autoPaySchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("off") }),
  z.object({ mode: z.literal("monthly"), day: z.coerce.number().int().min(1).max(28) }),
  z.object({ mode: z.literal("every"), days: z.coerce.number().int().min(1).max(365) }),
]);
export type AutoPay = z.infer<typeof autoPaySchema>;

export const paymentSettingsSchema = z.object({
  /** What affiliates may choose on /account/payouts. */
  affiliateMethods: z.array(z.enum(AFFILIATE_METHODS)).min(1).default(["paypal"]),
  /** Labels of the fields an affiliate fills in for "bank / other" (IBAN, account holder...). */
  bankFields: z.array(z.string().trim().min(1).max(60)).max(8).default([]),
  /** Minimum payout in minor units of each currency (a pending payout appears from this amount). */
  minimumAmount: z.coerce.number().int().min(0).max(100_000_000).default(0),
  /**
   * "separate": one payout per currency the affiliate earned in (never
   * converted); "shop": the same, and the screens lead with the shop's
   * currency. Amounts of different currencies are never added.
   */
  currencyMode: z.enum(["separate", "shop"]).default("separate"),
  /**
   * Currencies an affiliate may be paid in besides the shop's (always
   * allowed): PayPal's payout currencies, converted at the merchant's own
   * rates (ADR 052). Commissions stay in the shop's currency.
   */
  payoutCurrencies: z
    .array(z.enum(PAYPAL_CURRENCIES, { errorMap: () => ({ message: msg("Settings.Payment:rates.errors.currency") }) }))
    .max(PAYPAL_CURRENCIES.length)
    .transform((list) => [...new Set(list)].sort())
    .default([]),
  /** The method of the batches auto-pay creates. */
  defaultMethod: z.enum(PAYOUT_METHODS).default("manual"),
  autoPay: autoPaySchema.default({ mode: "off" }),
  /** Set by the server: when auto-pay runs next and when it last ran (ISO 8601). */
  nextRunAt: z.string().datetime().nullable().default(null),
  lastRunAt: z.string().datetime().nullable().default(null),
});
/** What the Settings › Payment form sends (the run times are the server's). */
export const paymentSettingsFormSchema = paymentSettingsSchema.omit({ nextRunAt: true, lastRunAt: true }).strict();
export type PaymentSettingsForm = z.infer<typeof paymentSettingsFormSchema>;
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

export const DEFAULT_PAYMENT_SETTINGS: PaymentSettings = paymentSettingsSchema.parse({});

/** The payment settings in a Shop.settings JSON text; anything unreadable falls back to the defaults. */
export function paymentSettingsOf(shopSettings: string | null | undefined): PaymentSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(shopSettings || "{}");
  } catch {
    return DEFAULT_PAYMENT_SETTINGS;
  }
  const payment = raw && typeof raw === "object" ? (raw as Record<string, unknown>).payment : undefined;
  const parsed = paymentSettingsSchema.safeParse(payment ?? {});
  return parsed.success ? parsed.data : DEFAULT_PAYMENT_SETTINGS;
}

/** Shop.settings with its payment part replaced (other keys kept). */
export function withPaymentSettings(shopSettings: string | null | undefined, payment: PaymentSettings): string {
  return withShopSetting(shopSettings, "payment", payment);
}
