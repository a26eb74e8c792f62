import { z } from "zod";
import { LANGUAGE_CODES } from "../../i18n/languages";
import { msg } from "../../i18n/messages";

// POST /api/shop payload. Shared by the settings form (client) and the API
// (server). Every field is optional; unknown keys are refused so a typo is a
// 4xx, not a silent no-op. Messages are translation keys (app/i18n/messages.ts).

// Shopify's money template placeholders, shown as they are in every language.
const AMOUNT_TOKENS =
  "{{amount}}, {{amount_no_decimals}}, {{amount_with_comma_separator}}, {{amount_no_decimals_with_comma_separator}}";
export const shopUpdateSchema = z
  .object({
    money_format: z
      .string()
      .trim()
      .min(1, msg("Settings:validation.moneyFormat"))
      .max(64, msg("Global:validation.textMax", { max: 64 }))
      .refine(
        (v) =>
          /\{\{\s*(amount|amount_no_decimals|amount_with_comma_separator|amount_no_decimals_with_comma_separator)\s*\}\}/.test(
            v,
          ),
        { message: msg("Settings:validation.moneyFormatAmount", { tokens: AMOUNT_TOKENS }) },
      )
      .optional(),
    setting: z
      .object({
        general: z
          .object({
            language: z
              .enum(LANGUAGE_CODES, { errorMap: () => ({ message: msg("Settings:validation.language") }) })
              .optional(),
            referral_param: z
              .string()
              .trim()
              .regex(/^[a-z][a-z0-9_-]{0,19}$/i, msg("Settings:validation.referralParam"))
              .optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ShopUpdate = z.infer<typeof shopUpdateSchema>;
