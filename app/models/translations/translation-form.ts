import { z } from "zod";
import { searchParam } from "../../lib/url-params";
import { PORTAL_LANGUAGE_CODES } from "../../i18n/languages";
import { isOverridableNamespace } from "../../i18n/overrides";

// Settings > Translations: the key list's URL parameters and the one form
// (save or reset one key), used by the page and the route alike. A list URL
// edited by hand still shows the list: malformed values fall back.

export const OVERRIDE_MAX_LENGTH = 2000;
export const TRANSLATION_PAGE_SIZE = 25;

const languageCode = z.enum(PORTAL_LANGUAGE_CODES, {
  errorMap: () => ({ message: "Choose a language of the list" }),
});
const namespace = z.string().max(60).refine(isOverridableNamespace, "Only portal and e-mail texts can be changed here");

export const translationListSchema = z.object({
  language: languageCode.optional().catch(undefined),
  ns: namespace.optional().catch(undefined),
  q: searchParam(),
  changed: z
    .enum(["1"])
    .optional()
    .catch(undefined)
    .transform((v) => v === "1"),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});

export type TranslationListParams = z.infer<typeof translationListSchema>;

const keyFields = {
  language: languageCode,
  namespace,
  key: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+$/, "No such text"),
};

export const translationFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save"),
    ...keyFields,
    value: z
      .string({ required_error: "Enter the text, or reset it to the shipped one" })
      .trim()
      .min(1, "Enter the text, or reset it to the shipped one")
      .max(OVERRIDE_MAX_LENGTH, `Use at most ${OVERRIDE_MAX_LENGTH} characters`),
  }),
  z.object({ intent: z.literal("reset"), ...keyFields }),
]);

export type TranslationForm = z.infer<typeof translationFormSchema>;
