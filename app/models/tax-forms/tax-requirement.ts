import { z } from "zod";
import { shopSettingsObject } from "../settings/shop-settings";

// Settings › Tax forms (the "taxForms" key of Shop.settings): whether a payout
// waits for the affiliate's tax form. Pure: the settings form and the server
// parse with the same schema, and the hold rule is a function of numbers the
// caller reads (tax-form-hold.server.ts), tested by table.

export const TAX_REQUIREMENTS = ["off", "above", "always"] as const;
export type TaxRequirement = (typeof TAX_REQUIREMENTS)[number];

export const taxSettingsSchema = z.object({
  /** off: pay without a form; above: once the calendar year's payments pass `amount`; always: every payout. */
  require: z.enum(TAX_REQUIREMENTS).default("off"),
  /** Minor units of the shop's currency, per affiliate and calendar year (UTC). */
  amount: z.coerce.number().int().min(0).max(100_000_000_000).default(60_000),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;
export const taxSettingsFormSchema = taxSettingsSchema.strict();

export const DEFAULT_TAX_SETTINGS: TaxSettings = taxSettingsSchema.parse({});

export function taxSettingsOf(shopSettings: string | null | undefined): TaxSettings {
  const parsed = taxSettingsSchema.safeParse(shopSettingsObject(shopSettings).taxForms ?? {});
  return parsed.success ? parsed.data : DEFAULT_TAX_SETTINGS;
}

export interface HoldInput {
  settings: TaxSettings;
  shopCurrency: string;
  /** The affiliate has a current (signed, not superseded) form of any kind. */
  hasForm: boolean;
  payout: { amount: number; currency: string };
  /**
   * What the affiliate was paid (or is being paid: processing) this calendar
   * year in the shop's currency, before this payout.
   */
  paidThisYear: number;
}

/** Why a payout waits: null when it may be paid. */
export type HoldReason = "tax_form_required" | "tax_form_required_above" | null;

export function taxFormHold(input: HoldInput): HoldReason {
  const { settings, hasForm } = input;
  if (hasForm || settings.require === "off") return null;
  if (settings.require === "always") return "tax_form_required";
  // A payout in another currency cannot be added to the year's total without
  // a rate the app does not keep: it waits, rather than slip past the limit.
  if (input.payout.currency !== input.shopCurrency) return "tax_form_required_above";
  return input.paidThisYear + input.payout.amount > settings.amount ? "tax_form_required_above" : null;
}
