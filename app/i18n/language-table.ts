// Every language the product ships, in one table: the product's own code (the
// folder name under public/locales/ and the value stored on shops and
// affiliates), the BCP 47 tag that Intl, i18next's plural rules and <html lang>
// use, the language's own name, its direction, and how much of the product is
// translated into it (spec section 9):
// - "full":    all 36 namespaces (the admin can be set to these);
// - "account": Account.* and Global (the affiliate side and e-mails);
// - "global":  Global only.
// Order: the full set first, then Shopify's storefront languages, then the
// world's most spoken languages, then the Global-only codes of the spec.

export type Coverage = "full" | "account" | "global";

export interface LanguageInfo {
  code: string;
  tag: string;
  name: string;
  dir: "ltr" | "rtl";
  coverage: Coverage;
}

type Row = [code: string, tag: string, name: string, coverage: Coverage, dir?: "rtl"];

const ROWS: Row[] = [
  ["en", "en", "English", "full"],
  ["de", "de", "Deutsch", "full"],
  ["es", "es", "Español", "full"],
  ["fr", "fr", "Français", "full"],
  ["it", "it", "Italiano", "full"],
  ["jp", "ja", "日本語", "full"],
  ["nl", "nl", "Nederlands", "full"],
  ["prt", "pt-BR", "Português (Brasil)", "full"],
  ["vn", "vi", "Tiếng Việt", "full"],
  ["zh", "zh-CN", "简体中文", "full"],

  ["ar", "ar", "العربية", "account", "rtl"],
  ["bg", "bg", "Български", "account"],
  ["bn", "bn", "বাংলা", "account"],
  ["ca", "ca", "Català", "account"],
  ["cs", "cs", "Čeština", "account"],
  ["da", "da", "Dansk", "account"],
  ["el", "el", "Ελληνικά", "account"],
  ["et", "et", "Eesti", "account"],
  ["fa", "fa", "فارسی", "account", "rtl"],
  ["fi", "fi", "Suomi", "account"],
  ["fil", "fil", "Filipino", "account"],
  ["he", "he", "עברית", "account", "rtl"],
  ["hi", "hi", "हिन्दी", "account"],
  ["hr", "hr", "Hrvatski", "account"],
  ["hu", "hu", "Magyar", "account"],
  ["id", "id", "Bahasa Indonesia", "account"],
  ["ko", "ko", "한국어", "account"],
  ["lt", "lt", "Lietuvių", "account"],
  ["lv", "lv", "Latviešu", "account"],
  ["ms", "ms", "Bahasa Melayu", "account"],
  ["nb", "nb", "Norsk bokmål", "account"],
  ["pl", "pl", "Polski", "account"],
  ["ro", "ro", "Română", "account"],
  ["ru", "ru", "Русский", "account"],
  ["sk", "sk", "Slovenčina", "account"],
  ["sl", "sl", "Slovenščina", "account"],
  ["sr", "sr", "Српски", "account"],
  ["sv", "sv", "Svenska", "account"],
  ["th", "th", "ไทย", "account"],
  ["tr", "tr", "Türkçe", "account"],
  ["uk", "uk", "Українська", "account"],
  ["ur", "ur", "اردو", "account", "rtl"],
  ["zh-TW", "zh-TW", "繁體中文", "account"],

  ["af", "af", "Afrikaans", "account"],
  ["sq", "sq", "Shqip", "account"],
  ["am", "am", "አማርኛ", "account"],
  ["hy", "hy", "Հայերեն", "account"],
  ["az", "az", "Azərbaycan", "account"],
  ["eu", "eu", "Euskara", "account"],
  ["be", "be", "Беларуская", "account"],
  ["bs", "bs", "Bosanski", "account"],
  ["my", "my", "မြန်မာ", "account"],
  ["ka", "ka", "ქართული", "account"],
  ["gl", "gl", "Galego", "account"],
  ["gu", "gu", "ગુજરાતી", "account"],
  ["ha", "ha", "Hausa", "account"],
  ["is", "is", "Íslenska", "account"],
  ["ig", "ig", "Igbo", "account"],
  ["ga", "ga", "Gaeilge", "account"],
  ["jv", "jv", "Basa Jawa", "account"],
  ["kn", "kn", "ಕನ್ನಡ", "account"],
  ["kk", "kk", "Қазақ", "account"],
  ["km", "km", "ខ្មែរ", "account"],
  ["rw", "rw", "Kinyarwanda", "account"],
  ["ky", "ky", "Кыргызча", "account"],
  ["lo", "lo", "ລາວ", "account"],
  ["lb", "lb", "Lëtzebuergesch", "account"],
  ["mk", "mk", "Македонски", "account"],
  ["mg", "mg", "Malagasy", "account"],
  ["ml", "ml", "മലയാളം", "account"],
  ["mt", "mt", "Malti", "account"],
  ["mi", "mi", "Māori", "account"],
  ["mr", "mr", "मराठी", "account"],
  ["mn", "mn", "Монгол", "account"],
  ["ne", "ne", "नेपाली", "account"],
  ["ps", "ps", "پښتو", "account", "rtl"],
  ["pa", "pa", "ਪੰਜਾਬੀ", "account"],
  ["si", "si", "සිංහල", "account"],
  ["so", "so", "Soomaali", "account"],
  ["sw", "sw", "Kiswahili", "account"],
  ["tg", "tg", "Тоҷикӣ", "account"],
  ["ta", "ta", "தமிழ்", "account"],
  ["te", "te", "తెలుగు", "account"],
  ["uz", "uz", "Oʻzbek", "account"],
  ["cy", "cy", "Cymraeg", "account"],
  ["xh", "xh", "isiXhosa", "account"],
  ["yo", "yo", "Yorùbá", "account"],
  ["zu", "zu", "isiZulu", "account"],
  ["ku", "ku", "Kurdî", "account"],
  ["or", "or", "ଓଡ଼ିଆ", "account"],
  ["su", "su", "Basa Sunda", "account"],
  ["ceb", "ceb", "Cebuano", "account"],
  ["ht", "ht", "Kreyòl ayisyen", "account"],

  ["bo", "bo", "བོད་སྐད་", "global"],
  ["dz", "dz", "རྫོང་ཁ", "global"],
  ["ny", "ny", "Chichewa", "global"],
  ["pt", "pt-PT", "Português (Portugal)", "global"],
  ["rn", "rn", "Ikirundi", "global"],
  ["tm", "tk", "Türkmençe", "global"],
  ["wo", "wo", "Wolof", "global"],
];

export const LANGUAGES: readonly LanguageInfo[] = ROWS.map(([code, tag, name, coverage, dir]) => ({
  code,
  tag,
  name,
  coverage,
  dir: dir ?? "ltr",
}));

/**
 * The pseudo-locale: English with accented letters, about 40 % longer and
 * bracketed, generated from the English files (app/i18n/pseudo.ts). It shows
 * text that is cut, overflows or was never translated. Served only in tests
 * or when PSEUDO_LOCALE=1 (app/i18n/locale.server.ts decides).
 */
export const PSEUDO_LANGUAGE: LanguageInfo = {
  code: "pseudo",
  tag: "en-XA",
  name: "Ƥšéûðö (en-XA)",
  coverage: "full",
  dir: "ltr",
};

export const DEFAULT_LANGUAGE_INFO = LANGUAGES[0]!;

const BY_CODE = new Map([...LANGUAGES, PSEUDO_LANGUAGE].map((l) => [l.code, l]));
const BY_TAG = new Map([...LANGUAGES, PSEUDO_LANGUAGE].map((l) => [l.tag.toLowerCase(), l]));

/** A product code (jp, prt, zh-TW, pseudo) to its row; undefined for anything else. */
export function languageInfo(code: string | null | undefined): LanguageInfo | undefined {
  return code ? BY_CODE.get(code) : undefined;
}

/** A BCP 47 tag (ja, pt-BR, en-XA) to its row, case-insensitively. */
export function languageByTag(tag: string | null | undefined): LanguageInfo | undefined {
  return tag ? BY_TAG.get(tag.toLowerCase()) : undefined;
}

/** Languages the admin can be set to: the full set (spec section 9). */
export const ADMIN_LANGUAGES: readonly LanguageInfo[] = LANGUAGES.filter((l) => l.coverage === "full");

/** Languages an affiliate can choose: every language with the Account.* namespaces. */
export const PORTAL_LANGUAGES: readonly LanguageInfo[] = LANGUAGES.filter((l) => l.coverage !== "global");

/** A portal page's ?lang= value when it names a portal language, else null. */
export function portalLanguageParam(value: string | null | undefined): string | null {
  return value && PORTAL_LANGUAGES.some((l) => l.code === value) ? value : null;
}

/** Namespaces a language ships, by its coverage (spec section 9). */
export function namespacesFor(coverage: Coverage, all: readonly string[]): string[] {
  if (coverage === "full") return [...all];
  if (coverage === "global") return ["Global"];
  return all.filter((ns) => ns === "Global" || ns.startsWith("Account."));
}

/** Whether a language ships a namespace (so it needs no English fallback for it). */
export function hasNamespace(language: LanguageInfo, ns: string): boolean {
  if (language.coverage === "full") return true;
  if (ns === "Global") return true;
  return language.coverage === "account" && ns.startsWith("Account.");
}
