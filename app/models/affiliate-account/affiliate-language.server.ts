import type { TFunction } from "i18next";
import type { ShopDb } from "../../db/shop-db.server";
import { chooseAffiliateLanguage } from "../../i18n/choose-language";
import { fixedT } from "../../i18n/i18next.server";
import type { LanguageInfo } from "../../i18n/language-table";
import { overridableNamespaces } from "../../i18n/overrides";
import { pseudoLocaleEnabled } from "../../i18n/resources.server";
import { AppError } from "../../lib/errors";
import { loadOverrides } from "../translations/overrides.server";

// Which language everything sent to one affiliate is in (their e-mails):
// their saved choice (account settings, or the language they signed up in),
// else their shop's language, else English. No browser is involved, so
// Accept-Language plays no part. The notifications work calls these.

/** The affiliate's language (a row of app/i18n/language-table.ts). */
export async function affiliateLanguage(db: ShopDb, affiliateId: string): Promise<LanguageInfo> {
  const affiliate = await db.affiliate.findFirst({
    where: { id: affiliateId },
    select: { language: true, shop: { select: { language: true } } },
  });
  if (!affiliate) throw new AppError("not_found", "No affiliate with this id.");
  return chooseAffiliateLanguage(
    { saved: affiliate.language, shop: affiliate.shop.language },
    { pseudo: pseudoLocaleEnabled() },
  );
}

/**
 * A translate function in the affiliate's language for texts sent to them:
 * the shipped files with their shop's own wording over them (Settings ›
 * Translations). `namespaces` default to what an affiliate may read.
 */
export async function affiliateTranslator(
  db: ShopDb,
  affiliateId: string,
  namespaces?: string[],
): Promise<{ language: LanguageInfo; t: TFunction }> {
  const language = await affiliateLanguage(db, affiliateId);
  const overrides = await loadOverrides(db, language.code);
  return { language, t: fixedT(language, namespaces ?? overridableNamespaces(language), overrides) };
}
