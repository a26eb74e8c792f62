import i18next from "i18next";
import de from "../../public/locales/de/Sales.json";
import en from "../../public/locales/en/Sales.json";
import ja from "../../public/locales/jp/Sales.json";
import {
  attributionFallbackText,
  attributionReasonText,
  type AttributionReason,
  type StoredReason,
} from "~/models/attribution/attribution-reason";
import { formatNumberIn } from "~/i18n/format";
import { explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";

// Attribution reasons written out with real i18next (plurals and all) over
// the product's own Sales texts, for tests that compare the words.

function translatorFor(tag: string, texts: object) {
  const instance = i18next.createInstance();
  void instance.init({
    lng: tag,
    ns: ["Sales"],
    defaultNS: "Sales",
    resources: { [tag]: { Sales: texts } },
    interpolation: { escapeValue: false },
    initImmediate: false,
  });
  return (key: string, values?: Record<string, unknown>) => instance.t(key, values) as string;
}

const translators = { en: translatorFor("en", en), de: translatorFor("de", de), ja: translatorFor("ja", ja) };

export type ReasonLanguage = keyof typeof translators;

const asStored = (reason: AttributionReason | StoredReason): StoredReason =>
  "key" in reason ? { reasonKey: reason.key, reasonValues: reason.values } : reason;

/** A decided or stored reason in a language; Intl's no-break spaces compared as plain spaces. */
export function reasonIn(language: ReasonLanguage, reason: AttributionReason | StoredReason): string {
  return attributionReasonText(translators[language], asStored(reason), (n) => formatNumberIn(language, n)).replace(
    /[\u00a0\u202f]/g,
    " ",
  );
}

export const englishReason = (reason: AttributionReason | StoredReason) => reasonIn("en", reason);

export function fallbackIn(language: ReasonLanguage, source: string, affiliateName: string | null): string {
  return attributionFallbackText(translators[language], source, affiliateName);
}

/** An Order row's reason in English (its stored key and values, or an older row's text). */
export function orderReason(order: {
  attributionReason: string;
  attributionReasonKey: string;
  attributionReasonValues: string;
}): string {
  return englishReason({
    reason: order.attributionReason,
    reasonKey: order.attributionReasonKey,
    reasonValues: order.attributionReasonValues,
  });
}

/** A stored commission explanation (bonus lines too) written out with real i18next in a language. */
export function explanationIn(language: ReasonLanguage, text: string, currency = "USD"): string {
  const t = translators[language];
  return writeExplanation(
    text,
    explanationWriter(
      (key, values) => t(key, { ...values, interpolation: { escapeValue: false } }),
      language,
      currency,
    ),
  ).replace(/[\u00a0\u202f]/g, " ");
}
