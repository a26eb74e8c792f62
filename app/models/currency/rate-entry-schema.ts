import { z } from "zod";
import { msg } from "../../i18n/messages";
import { RATE_DECIMALS } from "./exchange-rate";

// The "add a rate" form of Settings › Payment: one schema for the page (its
// field errors as the merchant types) and the server. A rate is what one
// unit of the shop's currency buys of the payout currency, as decimal text;
// when it was true is the moment it is entered (the server's clock).

/** ISO 4217 codes Node's ICU knows (Intl), else any three capitals. */
const ISO_CODES: ReadonlySet<string> | null = (() => {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf ? new Set(intl.supportedValuesOf("currency")) : null;
  } catch {
    return null;
  }
})();

export function isIsoCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && (!ISO_CODES || ISO_CODES.has(code));
}

/** Up to 7 whole digits and RATE_DECIMALS decimals; more than zero and at most a million (checked below). */
const RATE = new RegExp(`^\\d{1,7}(?:\\.\\d{1,${RATE_DECIMALS}})?$`);

export const rateEntryFormSchema = z
  .object({
    currency: z
      .string({ required_error: msg("Global:validation.required") })
      .trim()
      .toUpperCase()
      .refine(isIsoCurrency, msg("Settings.Payment:rates.errors.currency")),
    rate: z
      .string({ required_error: msg("Global:validation.required") })
      .trim()
      .min(1, msg("Global:validation.required"))
      .refine((v) => RATE.test(v), msg("Settings.Payment:rates.errors.format", { decimals: RATE_DECIMALS }))
      .refine(
        (v) => !RATE.test(v) || (/[1-9]/.test(v) && Number(v) <= 1_000_000),
        msg("Settings.Payment:rates.errors.positive"),
      ),
  })
  .strict();
export type RateEntryForm = z.infer<typeof rateEntryFormSchema>;
