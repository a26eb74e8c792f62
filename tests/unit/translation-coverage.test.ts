import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LANGUAGES, namespacesFor, type LanguageInfo } from "~/i18n/language-table";
import { NAMESPACES } from "~/i18n/languages";
import { checkLocales } from "~/i18n/translation-coverage.server";

// The CI check of the rule in CONTRIBUTING.md: a change that adds an English
// string adds it to every language that ships its namespace in the same
// change. Every language of the table, by the namespace rule of spec section
// 9, against English: every key (in the language's own CLDR plural forms),
// no extra key, the same {{placeholders}}, tags and $t() nestings.

const LOCALES = path.resolve(__dirname, "../../public/locales");

describe("shipped translations", () => {
  const reports = checkLocales(LOCALES);

  it("cover every language of the table but English", () => {
    expect(reports.map((r) => r.language.code).sort()).toEqual(
      LANGUAGES.filter((l) => l.code !== "en")
        .map((l) => l.code)
        .sort(),
    );
    // 9 other full languages, the account languages, the 7 Global-only codes of the spec.
    expect(reports.filter((r) => r.language.coverage === "global").map((r) => r.language.code)).toEqual(
      expect.arrayContaining(["bo", "dz", "ny", "pt", "rn", "tm", "wo"]),
    );
  });

  it.each(reports.map((r) => [`${r.language.code} (${r.language.coverage})`, r] as const))(
    "%s: complete, nothing extra, placeholders and tags intact",
    (_label, report) => {
      expect(report.problems).toEqual([]);
    },
  );

  it("ship exactly the namespace files their coverage names, no more", () => {
    const extra: string[] = [];
    for (const language of LANGUAGES) {
      const allowed = new Set(namespacesFor(language.coverage, NAMESPACES).map((ns) => `${ns}.json`));
      for (const file of readdirSync(path.join(LOCALES, language.code))) {
        if (!allowed.has(file)) extra.push(`${language.code}/${file}`);
      }
    }
    expect(extra).toEqual([]);
  });
});

describe("the check on a synthetic locales folder", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "locales-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (code: string, ns: string, tree: unknown) => {
    mkdirSync(path.join(dir, code), { recursive: true });
    writeFileSync(path.join(dir, code, `${ns}.json`), JSON.stringify(tree));
  };
  const full: LanguageInfo = { code: "de", tag: "de", name: "Deutsch", dir: "ltr", coverage: "full" };
  const account: LanguageInfo = { code: "ru", tag: "ru", name: "Русский", dir: "ltr", coverage: "account" };
  const globalOnly: LanguageInfo = { code: "wo", tag: "wo", name: "Wolof", dir: "ltr", coverage: "global" };
  const namespaces = ["Account.Common", "Global", "Campaigns"];

  write("en", "Account.Common", {
    welcome: "Welcome to {{shop}}",
    sales_one: "{{count}} sale",
    sales_other: "{{count}} sales",
  });
  write("en", "Global", { save: "Save", terms: "I accept the <b>terms</b> of {{shop}}" });
  write("en", "Campaigns", { title: "Campaigns" });

  it("passes a complete language, each coverage by its own namespaces", () => {
    write("de", "Account.Common", {
      welcome: "Willkommen bei {{shop}}",
      sales_one: "Ein Verkauf",
      sales_other: "{{count}} Verkäufe",
    });
    write("de", "Global", { save: "Speichern", terms: "Ich akzeptiere die <b>Bedingungen</b> von {{shop}}" });
    write("de", "Campaigns", { title: "Kampagnen" });
    write("ru", "Account.Common", {
      welcome: "Добро пожаловать в {{shop}}",
      sales_one: "{{count}} продажа",
      sales_few: "{{count}} продажи",
      sales_many: "{{count}} продаж",
      sales_other: "{{count}} продажи",
    });
    write("ru", "Global", { save: "Сохранить", terms: "Я принимаю <b>условия</b> {{shop}}" });
    write("wo", "Global", { save: "Denc", terms: "Nangu naa <b>sàrt yi</b> ci {{shop}}" });
    const reports = checkLocales(dir, [full, account, globalOnly], namespaces);
    expect(reports.map((r) => [r.language.code, r.problems])).toEqual([
      ["de", []],
      ["ru", []],
      ["wo", []],
    ]);
  });

  it("fails on a missing key, a broken placeholder, a lost tag, a missing plural form, an extra key and a missing file", () => {
    write("de", "Account.Common", {
      welcome: "Willkommen bei {{laden}}",
      sales_one: "Ein Verkauf",
      sales_other: "{{count}} Verkäufe",
      extra: "Nicht im Englischen",
    });
    write("de", "Global", { terms: "Ich akzeptiere die Bedingungen von {{shop}}" });
    rmSync(path.join(dir, "de", "Campaigns.json"));
    write("ru", "Account.Common", {
      welcome: "Добро пожаловать в {{shop}}",
      sales_one: "{{count}} продажа",
      sales_other: "{{count}} продажи",
    });
    const [de, ru] = checkLocales(dir, [full, account], namespaces);
    expect(de!.problems).toEqual([
      expect.stringMatching(/^Account\.Common:welcome: placeholders differ/),
      "Account.Common:extra: not in English",
      "Global:save: missing",
      expect.stringMatching(/^Global:terms: tags differ/),
      "Campaigns: file missing",
    ]);
    expect(ru!.problems).toEqual(["Account.Common:sales_few: missing", "Account.Common:sales_many: missing"]);
  });

  it("fails a language that is mostly English copied over", () => {
    write("en", "Global", {
      save: "Save",
      terms: "I accept the <b>terms</b> of {{shop}}",
      intro: "Share your link and earn on every sale",
    });
    write("wo", "Global", {
      save: "Denc",
      terms: "I accept the <b>terms</b> of {{shop}}",
      intro: "Share your link and earn on every sale",
    });
    const [wo] = checkLocales(dir, [globalOnly], namespaces);
    expect(wo!.problems).toEqual(["2 of 2 multi-word strings are identical to English"]);
  });
});
