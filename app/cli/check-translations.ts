// `npm run i18n:check [code ...]`: checks translation files against English
// (app/i18n/translation-check.ts) for the given language codes, or for every
// language of the table. Exit code 1 when anything is wrong.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { LANGUAGES, languageInfo, namespacesFor } from "../i18n/language-table";
import { NAMESPACES } from "../i18n/languages";
import { checkNamespace, untranslatedShare, type Tree } from "../i18n/translation-check";

const LOCALES = path.resolve(__dirname, "../../public/locales");
const read = (code: string, ns: string): Tree | null => {
  const file = path.join(LOCALES, code, `${ns}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Tree) : null;
};

const codes = process.argv.slice(2).length ? process.argv.slice(2) : LANGUAGES.map((l) => l.code);
let failures = 0;
for (const code of codes) {
  const info = languageInfo(code);
  if (!info) {
    console.error(`${code}: not in app/i18n/language-table.ts`);
    failures++;
    continue;
  }
  if (code === "en") continue;
  let same = 0;
  let total = 0;
  const lines: string[] = [];
  for (const ns of namespacesFor(info.coverage, NAMESPACES)) {
    const target = read(code, ns);
    if (!target) {
      lines.push(`  ${ns}: file missing`);
      continue;
    }
    for (const p of checkNamespace(read("en", ns)!, target, info.tag)) lines.push(`  ${ns}:${p.key}: ${p.message}`);
    const share = untranslatedShare(read("en", ns)!, target);
    same += share.same.length;
    total += share.total;
  }
  if (total && same / total > 0.1) lines.push(`  ${same} of ${total} multi-word strings are identical to English`);
  if (lines.length) {
    failures++;
    console.error(`${code} (${info.tag}, ${info.coverage}):\n${lines.join("\n")}`);
  } else console.log(`${code} (${info.tag}, ${info.coverage}): ok`);
}
process.exit(failures ? 1 : 0);
