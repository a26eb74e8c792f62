import de from "../../public/locales/de/Sales.json";
import en from "../../public/locales/en/Sales.json";
import { explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";

// Stored commission explanations written out as the admin shows them, in
// English and German, for tests that compare the words.

// i18next's interpolation, as far as these texts use it.
function tFor(texts: Record<string, unknown>) {
  return (key: string, values: Record<string, string | number> = {}) => {
    const text = key
      .replace(/^Sales:/, "")
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], texts);
    return String(text).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
  };
}
export const english = (text: string, currency = "USD") =>
  writeExplanation(text, explanationWriter(tFor(en), "en", currency));
// Intl writes "168,00 $" and "15 %" with no-break spaces; compared as plain spaces.
export const german = (text: string, currency = "USD") =>
  writeExplanation(text, explanationWriter(tFor(de), "de", currency)).replace(/[\u00a0\u202f]/g, " ");
