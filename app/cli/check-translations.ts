// `npm run i18n:check [code ...]`: checks translation files against English
// (app/i18n/translation-coverage.server.ts) for the given language codes, or
// for every language of the table. Exit code 1 when anything is wrong.
import path from "node:path";
import { LANGUAGES, languageInfo, type LanguageInfo } from "../i18n/language-table";
import { checkLocales } from "../i18n/translation-coverage.server";

const LOCALES = path.resolve(__dirname, "../../public/locales");
const asked = process.argv.slice(2);
const unknown = asked.filter((code) => !languageInfo(code));
for (const code of unknown) console.error(`${code}: not in app/i18n/language-table.ts`);
const languages = asked.length
  ? asked.map((code) => languageInfo(code)).filter((l): l is LanguageInfo => !!l)
  : [...LANGUAGES];

let failures = unknown.length;
for (const { language, problems } of checkLocales(LOCALES, languages)) {
  const label = `${language.code} (${language.tag}, ${language.coverage})`;
  if (problems.length) {
    failures++;
    console.error(`${label}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  } else console.log(`${label}: ok`);
}
process.exit(failures ? 1 : 0);
