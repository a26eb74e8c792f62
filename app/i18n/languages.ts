// Languages the admin can be set to (spec section 9: the full translation set
// exists for these codes; the codes are the product's own, e.g. jp, prt, vn).
export const LANGUAGE_CODES = ["en", "de", "es", "fr", "it", "jp", "nl", "prt", "vn", "zh"] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export const LANGUAGE_LABELS: Record<LanguageCode, string> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
  jp: "日本語",
  nl: "Nederlands",
  prt: "Português",
  vn: "Tiếng Việt",
  zh: "中文",
};

export const DEFAULT_LANGUAGE = "en";

// Languages whose translation files ship today. The others fall back to en
// until their files are added under public/locales/{code}/.
export const SHIPPED_LANGUAGES: readonly string[] = ["en"];

export function resolveLanguage(code: string | null | undefined): string {
  return code && SHIPPED_LANGUAGES.includes(code) ? code : DEFAULT_LANGUAGE;
}

// Spec section 9, in order.
export const NAMESPACES = [
  "Account.Common",
  "Account.Creatives",
  "Account.Dashboard",
  "Account.Guide",
  "Account.Payouts",
  "Account.Products",
  "Account.Sales",
  "Account.Settings",
  "Global",
  "Affiliates",
  "Bonuses",
  "Campaigns",
  "ContactUs",
  "Creatives",
  "Dashboard",
  "FeatureOverview",
  "Feedback",
  "Instructions",
  "Mails",
  "Payouts",
  "Plans",
  "Portal.LeftBar",
  "Portal.TopBar",
  "Portal.schema.label",
  "Portals",
  "Referrals",
  "Referrals.ReferralHistory",
  "Sales",
  "Settings",
  "Settings.Branding",
  "Settings.Integrations",
  "Settings.Marketings",
  "Settings.Marketplace",
  "Settings.Payment",
  "Settings.Translations",
  "TopMenu",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
