import { overridableNamespaces } from "../../i18n/overrides";
import type { LanguageInfo } from "../../i18n/language-table";
import { loadNamespace } from "../../i18n/resources.server";
import { expectedKeys, flatten } from "../../i18n/translation-check";
import type { CatalogueEntry } from "./translation-catalogue";

// Every text of one language a merchant may reword, read from the shipped
// files once per process (they do not change while the app runs).

const cache = new Map<string, CatalogueEntry[]>();

export function catalogueFor(language: LanguageInfo): CatalogueEntry[] {
  const hit = cache.get(language.code);
  if (hit) return hit;
  const entries: CatalogueEntry[] = [];
  for (const namespace of overridableNamespaces(language)) {
    const englishTree = loadNamespace("en", namespace);
    if (!englishTree) continue;
    const english = flatten(englishTree);
    const own = flatten(loadNamespace(language.code, namespace) ?? {});
    for (const [key, source] of expectedKeys(english, language.tag)) {
      entries.push({ namespace, key, english: english[source]!, shipped: own[key] ?? english[source]! });
    }
  }
  cache.set(language.code, entries);
  return entries;
}
