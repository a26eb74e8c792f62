import type { TFunction } from "i18next";
import type { ShopDb } from "../../db/shop-db.server";
import type { LanguageInfo } from "../../i18n/language-table";
import { affiliateTranslator } from "./affiliate-language.server";

// Every e-mail to an affiliate is written from keys of Account.Common
// (`email.{name}.subject` and `email.{name}.body`), shipped in all the
// affiliate's languages, in the affiliate's language (their saved choice,
// else their shop's) with their shop's own wording over it (Settings ›
// Translations). Plain text: values are not escaped.

/** The e-mails affiliates get; each has `email.{name}.subject` and `.body` in Account.Common. */
export const AFFILIATE_EMAILS = ["reset"] as const;
export type AffiliateEmailName = (typeof AFFILIATE_EMAILS)[number];

/** A value of the texts: as it is, or made in the e-mail's language (durations, dates). */
export type EmailValue = string | number | ((t: TFunction, language: LanguageInfo) => string);

export interface AffiliateEmail {
  language: LanguageInfo;
  subject: string;
  text: string;
}

/** "60 minutes" in the e-mail's language, with its own plural forms. */
export const minutes =
  (count: number): EmailValue =>
  (t) =>
    t("Account.Common:email.minutes", { count });

export async function renderAffiliateEmail(
  db: ShopDb,
  affiliateId: string,
  name: AffiliateEmailName,
  values: Record<string, EmailValue>,
): Promise<AffiliateEmail> {
  const { language, t } = await affiliateTranslator(db, affiliateId, ["Account.Common"]);
  const made = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, typeof value === "function" ? value(t, language) : value]),
  );
  const subject = t(`email.${name}.subject`, made);
  // A subject is one line, whatever a merchant's override holds.
  return { language, subject: subject.replace(/\s+/g, " ").trim(), text: t(`email.${name}.body`, made) };
}
