import { z } from "zod";
import { msg } from "../i18n/messages";
import type { SignupField } from "./portal-content";

// The merchant's own sign-up fields (text, a list to choose from, a
// checkbox): one zod schema built from their definitions checks the answers
// wherever a form is read (the sign-up action, the editor's preview), and
// the answers are kept with the affiliate by field id.

export type SignupAnswer = string | boolean;

/** The form field's name of a custom field. */
export const answerName = (field: Pick<SignupField, "id">) => `q_${field.id}`;

const MAX_ANSWER = 1000;

function answerSchema(field: SignupField): z.ZodType<SignupAnswer, z.ZodTypeDef, unknown> {
  switch (field.type) {
    case "checkbox": {
      // A checked box posts "on"; an unchecked one posts nothing.
      const checked = z.unknown().transform((v) => v === "on" || v === "true" || v === true);
      return field.required ? checked.refine((v) => v, msg("Account.Common:validation.answer")) : checked;
    }
    case "select": {
      const choice = z
        .unknown()
        .transform((v) => (typeof v === "string" ? v.trim() : ""))
        .refine((v) => v === "" || field.options.includes(v), msg("Global:validation.choose"));
      return field.required ? choice.refine((v) => v !== "", msg("Global:validation.choose")) : choice;
    }
    default: {
      const text = z
        .unknown()
        .transform((v) => (typeof v === "string" ? v.trim() : ""))
        .refine((v) => v.length <= MAX_ANSWER, msg("Global:validation.textMax", { max: MAX_ANSWER }));
      return field.required ? text.refine((v) => v !== "", msg("Account.Common:validation.answer")) : text;
    }
  }
}

/** The zod shape of the custom fields' answers, keyed by form field name. */
export function customFieldsShape(fields: readonly SignupField[]): Record<string, z.ZodTypeAny> {
  return Object.fromEntries(fields.map((f) => [answerName(f), answerSchema(f)]));
}

/** The answers to keep with the affiliate: field id → answer (empty text and unticked boxes of optional fields left out). */
export function customFieldAnswers(
  fields: readonly SignupField[],
  input: Record<string, unknown>,
): Record<string, SignupAnswer> {
  const answers: Record<string, SignupAnswer> = {};
  for (const f of fields) {
    const v = input[answerName(f)];
    if (f.type === "checkbox") answers[f.id] = v === true;
    else if (typeof v === "string" && v) answers[f.id] = v;
  }
  return answers;
}

/** The field's label in a portal language, or the merchant's own text. */
export function fieldLabel(field: Pick<SignupField, "label" | "labels">, language: string | null | undefined): string {
  return (language && field.labels[language]) || field.label;
}

/** Reads the stored answers (signupAnswers JSON) back; anything unreadable is none. */
export function readSignupAnswers(raw: string | null | undefined): Record<string, SignupAnswer> {
  try {
    const parsed = JSON.parse(raw ?? "{}") as { answers?: unknown };
    const answers = parsed.answers;
    if (typeof answers !== "object" || answers === null) return {};
    return Object.fromEntries(
      Object.entries(answers).filter(([, v]) => typeof v === "string" || typeof v === "boolean"),
    ) as Record<string, SignupAnswer>;
  } catch {
    return {};
  }
}
