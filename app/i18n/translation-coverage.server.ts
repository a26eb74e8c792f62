import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { LANGUAGES, namespacesFor, type LanguageInfo } from "./language-table";
import { NAMESPACES } from "./languages";
import { checkNamespace, untranslatedShare, type Tree } from "./translation-check";

// Every language of the table against English, by the namespace rule of
// spec section 9 (the full set: all 36; "account": Account.* and Global;
// "global": Global): each key present in the language's own plural forms, no
// key English lacks, the same placeholders, tags and $t() nestings, and no
// English copy passed off as a translation. Reads a locales folder laid out
// as public/locales/{code}/{namespace}.json. Used by `npm run i18n:check`
// and by the CI test (tests/unit/translation-coverage.test.ts).

export interface LanguageReport {
  language: LanguageInfo;
  problems: string[];
}

/** Above this share of multi-word strings identical to English, a language counts as untranslated. */
export const MAX_ENGLISH_SHARE = 0.1;

export function checkLocales(
  localesDir: string,
  languages: readonly LanguageInfo[] = LANGUAGES,
  namespaces: readonly string[] = NAMESPACES,
): LanguageReport[] {
  const cache = new Map<string, Tree | null>();
  const read = (code: string, ns: string): Tree | null => {
    const key = `${code}/${ns}`;
    if (!cache.has(key)) {
      const file = path.join(localesDir, code, `${ns}.json`);
      cache.set(key, existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Tree) : null);
    }
    return cache.get(key)!;
  };
  const reports: LanguageReport[] = [];
  for (const language of languages) {
    if (language.code === "en") continue;
    const problems: string[] = [];
    let same = 0;
    let total = 0;
    for (const ns of namespacesFor(language.coverage, namespaces)) {
      const english = read("en", ns);
      if (!english) {
        problems.push(`${ns}: English file missing`);
        continue;
      }
      const target = read(language.code, ns);
      if (!target) {
        problems.push(`${ns}: file missing`);
        continue;
      }
      for (const p of checkNamespace(english, target, language.tag)) problems.push(`${ns}:${p.key}: ${p.message}`);
      const share = untranslatedShare(english, target);
      same += share.same.length;
      total += share.total;
    }
    if (total && same / total > MAX_ENGLISH_SHARE) {
      problems.push(`${same} of ${total} multi-word strings are identical to English`);
    }
    reports.push({ language, problems });
  }
  return reports;
}
