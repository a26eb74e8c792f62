import type { Overrides } from "../../i18n/overrides";

// The texts a merchant can reword (Settings > Translations), as a flat list,
// and the list's search and paging. Pure: the entries come from the shipped
// files (translation-catalogue.server.ts), the overrides from the database.

export interface CatalogueEntry {
  namespace: string;
  /** Flat key in the namespace, in the language's own plural forms. */
  key: string;
  /** The English text it translates (for plural forms English lacks: English's "other"). */
  english: string;
  /** The shipped translation (English where the language has none). */
  shipped: string;
}

export interface CatalogueRow extends CatalogueEntry {
  /** The merchant's text, when they changed it. */
  override: string | null;
}

export interface CatalogueFilter {
  namespace?: string;
  /** Words to find in the key or any of the texts (case- and accent-insensitive). */
  q?: string;
  /** Only the texts the merchant changed. */
  changed?: boolean;
}

export interface CataloguePage {
  rows: CatalogueRow[];
  total: number;
  page: number;
  pages: number;
}

const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLocaleLowerCase();

export function filterCatalogue(
  entries: readonly CatalogueEntry[],
  overrides: Overrides,
  filter: CatalogueFilter,
  page: number,
  pageSize: number,
): CataloguePage {
  const words = filter.q ? fold(filter.q).split(/\s+/).filter(Boolean) : [];
  const matches: CatalogueRow[] = [];
  for (const entry of entries) {
    if (filter.namespace && entry.namespace !== filter.namespace) continue;
    const override = overrides[entry.namespace]?.[entry.key] ?? null;
    if (filter.changed && override === null) continue;
    if (words.length) {
      const text = fold(`${entry.namespace}:${entry.key} ${entry.english} ${entry.shipped} ${override ?? ""}`);
      if (!words.every((w) => text.includes(w))) continue;
    }
    matches.push({ ...entry, override });
  }
  const pages = Math.max(1, Math.ceil(matches.length / pageSize));
  const current = Math.min(Math.max(1, page), pages);
  return {
    rows: matches.slice((current - 1) * pageSize, current * pageSize),
    total: matches.length,
    page: current,
    pages,
  };
}
