import type { SignupField } from "../../lib/portal-content";
import { readSignupAnswers, type SignupAnswer } from "../../lib/signup-fields";
import { publishedPage } from "./portal-pages.server";

// The merchant's sign-up fields as affiliates are asked them (the published
// sign-up page), and an affiliate's answers to them for the admin's screens
// and the CSV export.

export async function publishedSignupFields(shopId: string): Promise<SignupField[]> {
  return (await publishedPage(shopId, "signup"))?.form.questions ?? [];
}

export interface SignupAnswerRow {
  id: string;
  label: string;
  type: SignupField["type"];
  value: SignupAnswer | null;
}

/** One row per field the form asks (unanswered ones too), in the form's order. */
export function signupAnswerRows(fields: readonly SignupField[], stored: string | null | undefined): SignupAnswerRow[] {
  const answers = readSignupAnswers(stored);
  return fields.map((f) => ({ id: f.id, label: f.label, type: f.type, value: answers[f.id] ?? null }));
}

/** A CSV cell of an answer: the text, the choice, or yes/no for a checkbox. */
export function answerCell(field: Pick<SignupField, "type">, value: SignupAnswer | undefined): string {
  if (field.type === "checkbox") return value === true ? "yes" : "no";
  return typeof value === "string" ? value : "";
}
