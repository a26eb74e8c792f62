import type { TFunction } from "i18next";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { explanationWriter, writeExplanation } from "./commission-explanation";

// Explanations in English, for the REST API and outgoing webhooks (which
// stay English, ADR 020) and for logs.

let sales: TFunction | undefined;

export function englishExplanation(text: string, currency: string): string {
  sales ??= fixedT(DEFAULT_LANGUAGE_INFO, ["Sales"]);
  const t = sales;
  return writeExplanation(
    text,
    explanationWriter((key, values) => t(key, values) as string, "en", currency),
  );
}
