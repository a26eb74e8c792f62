import type { TFunction } from "i18next";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { attributionFallbackText, attributionReasonText, type StoredReason } from "./attribution-reason";

// Attribution reasons in English, for the REST API (which answers in English,
// ADR 020) and for tests and logs that compare words.

let sales: TFunction | undefined;

export function englishAttributionReason(
  stored: StoredReason & { source: string; affiliateName?: string | null },
): string {
  sales ??= fixedT(DEFAULT_LANGUAGE_INFO, ["Sales"]);
  const t = sales;
  const translate = (key: string, values?: Record<string, unknown>) => t(key, values) as string;
  const text = attributionReasonText(translate, stored);
  if (text.trim() || stored.affiliateName === undefined) return text;
  return attributionFallbackText(translate, stored.source, stored.affiliateName);
}
