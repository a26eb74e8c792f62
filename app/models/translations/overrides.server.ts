import type { ShopDb } from "../../db/shop-db.server";
import { chooseAdminLanguage, portalLanguage } from "../../i18n/choose-language";
import { PORTAL_LANGUAGES, type LanguageInfo } from "../../i18n/language-table";
import { overridableNamespaces, type Overrides } from "../../i18n/overrides";
import { checkValue } from "../../i18n/translation-check";
import { AppError } from "../../lib/errors";
import { filterCatalogue, type CataloguePage } from "./translation-catalogue";
import { catalogueFor } from "./translation-catalogue.server";
import { TRANSLATION_PAGE_SIZE, type TranslationForm, type TranslationListParams } from "./translation-form";

// A shop's own wording of portal and e-mail texts, per language
// (Settings > Translations). Every page of the shop reads them for its
// language (app/i18n/locale.server.ts); the e-mails read them the same way.

/** The shop's overrides in one language, by namespace and flat key. */
export async function loadOverrides(db: ShopDb, language: string): Promise<Overrides> {
  const rows = await db.translationOverride.findMany({
    where: { language },
    select: { namespace: true, key: true, value: true },
  });
  const overrides: Overrides = {};
  for (const row of rows) (overrides[row.namespace] ??= {})[row.key] = row.value;
  return overrides;
}

export interface TranslationSettings extends CataloguePage {
  language: string;
  languages: { code: string; tag: string; name: string; dir: "ltr" | "rtl"; changed: number }[];
  namespaces: string[];
  namespace: string | null;
  q: string;
  changed: boolean;
}

/** The key list of Settings > Translations: one page of it, searched and filtered on the server. */
export async function translationSettings(
  db: ShopDb,
  shopLanguage: string,
  params: TranslationListParams,
): Promise<TranslationSettings> {
  // Default: the shop's own language, the one its affiliates most likely read.
  const language = portalLanguage(params.language) ?? chooseAdminLanguage(shopLanguage);
  const namespaces = overridableNamespaces(language);
  const namespace = params.ns && namespaces.includes(params.ns) ? params.ns : null;
  const [overrides, counts] = await Promise.all([
    loadOverrides(db, language.code),
    db.translationOverride.groupBy({ by: ["language"], _count: { _all: true } }),
  ]);
  const changedBy = new Map(counts.map((c) => [c.language, c._count._all]));
  const page = filterCatalogue(
    catalogueFor(language),
    overrides,
    { namespace: namespace ?? undefined, q: params.q, changed: params.changed },
    params.page ?? 1,
    TRANSLATION_PAGE_SIZE,
  );
  return {
    ...page,
    language: language.code,
    languages: PORTAL_LANGUAGES.map((l) => ({
      code: l.code,
      tag: l.tag,
      name: l.name,
      dir: l.dir,
      changed: changedBy.get(l.code) ?? 0,
    })),
    namespaces,
    namespace,
    q: params.q ?? "",
    changed: params.changed,
  };
}

function findEntry(language: LanguageInfo, namespace: string, key: string) {
  const entry = catalogueFor(language).find((e) => e.namespace === namespace && e.key === key);
  if (!entry) throw new AppError("not_found", "This text does not exist in this language.");
  return entry;
}

/** Saves the shop's wording of one text, or resets it to the shipped one. */
export async function changeTranslation(db: ShopDb, form: TranslationForm): Promise<{ reset: boolean }> {
  const language = portalLanguage(form.language);
  if (!language)
    throw new AppError("validation_failed", "Choose a language of the list", {
      fields: { language: "Choose a language of the list" },
    });
  const entry = findEntry(language, form.namespace, form.key);
  const where = { language: language.code, namespace: form.namespace, key: form.key };
  // Saving the shipped text again is the same as resetting it.
  if (form.intent === "reset" || form.value === entry.shipped) {
    await db.$transaction([db.translationOverride.deleteMany({ where }), raiseTranslationsVersion(db)]);
    return { reset: true };
  }
  const problems = checkValue(form.key, entry.english, form.value);
  if (problems.length) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { value: placeholderMessage(entry.english) },
    });
  }
  await db.$transaction([
    db.translationOverride.upsert({
      where: { shopId_language_namespace_key: { shopId: db.$shopId, ...where } },
      create: { ...where, shopId: db.$shopId, value: form.value },
      update: { value: form.value },
    }),
    raiseTranslationsVersion(db),
  ]);
  return { reset: false };
}

// Pages keep the overrides they read until this moves (pageOverrides).
function raiseTranslationsVersion(db: ShopDb) {
  return db.shop.update({ where: { id: db.$shopId }, data: { translationsVersion: { increment: 1 } } });
}

// Bounded: one entry per shop and language in use on this process.
const PAGE_OVERRIDES_MAX = 10_000;
const pageOverridesCache = new Map<string, { version: number; overrides: Overrides }>();

/**
 * The overrides every page of a shop shows, read from the database only when
 * the shop's translationsVersion (read with the shop, by the page's door) is
 * not the one this process last read them at. Another instance's change
 * raises the version in the same transaction, so no process shows old texts.
 */
export async function pageOverrides(
  db: ShopDb,
  shop: { translationsVersion: number },
  language: string,
): Promise<Overrides> {
  const key = `${db.$shopId}/${language}`;
  const hit = pageOverridesCache.get(key);
  if (hit && hit.version === shop.translationsVersion) return hit.overrides;
  const overrides = await loadOverrides(db, language);
  if (pageOverridesCache.size >= PAGE_OVERRIDES_MAX) pageOverridesCache.clear();
  pageOverridesCache.set(key, { version: shop.translationsVersion, overrides });
  return overrides;
}

function placeholderMessage(english: string): string {
  const kept = [
    ...new Set([...english.matchAll(/\{\{\s*[\w.]+[^}]*\}\}|<\/?[A-Za-z0-9]+\s*\/?>|\$t\([^)]*\)/g)].map((m) => m[0])),
  ];
  return kept.length
    ? `Keep exactly these parts of the original text: ${kept.join(" ")}`
    : "Do not add {{placeholders}}, tags or $t() references: the original text has none";
}
