import { z } from "zod";
import { LANGUAGE_CODES } from "../../i18n/languages";

// POST /api/shop payload. Shared by the settings form (client) and the API
// (server). Every field is optional; unknown keys are refused so a typo is a
// 4xx, not a silent no-op.
export const shopUpdateSchema = z
  .object({
    money_format: z
      .string()
      .trim()
      .min(1, "Enter a money format")
      .max(64, "Use at most 64 characters")
      .refine(
        (v) =>
          /\{\{\s*(amount|amount_no_decimals|amount_with_comma_separator|amount_no_decimals_with_comma_separator)\s*\}\}/.test(
            v,
          ),
        {
          message:
            "Include one of {{amount}}, {{amount_no_decimals}}, {{amount_with_comma_separator}} or {{amount_no_decimals_with_comma_separator}}",
        },
      )
      .optional(),
    setting: z
      .object({
        general: z
          .object({
            language: z
              .enum(LANGUAGE_CODES, { errorMap: () => ({ message: "Choose a supported language" }) })
              .optional(),
            referral_param: z
              .string()
              .trim()
              .regex(/^[a-z][a-z0-9_-]{0,19}$/i, "Use 1 to 20 letters, digits, - or _, starting with a letter")
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
