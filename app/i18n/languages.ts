import { ADMIN_LANGUAGES, LANGUAGES, PORTAL_LANGUAGES } from "./language-table";

// The product's language codes (jp, prt, vn, ... : folder names under
// public/locales/ and the values stored on shops and affiliates), derived
// from the one table in language-table.ts.

/** Codes the admin (the shop's language) can be set to: the full set. */
export const LANGUAGE_CODES = ADMIN_LANGUAGES.map((l) => l.code) as [string, ...string[]];

/** Codes an affiliate can choose for the portal and their e-mails. */
export const PORTAL_LANGUAGE_CODES = PORTAL_LANGUAGES.map((l) => l.code) as [string, ...string[]];

/** Each language's own name, for pickers. */
export const LANGUAGE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  LANGUAGES.map((l) => [l.code, l.name]),
);

// Spec section 9, in order.
export const NAMESPACES = [
  "Account.Common",
  "Account.Creatives",
  "Account.Dashboard",
  "Account.Guide",
  "Account.Payouts",
  "Account.Products",
  "Account.Reasons",
  "Account.Sales",
  "Account.Settings",
  "Account.TaxForm",
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
  "Tax",
  "TopMenu",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
