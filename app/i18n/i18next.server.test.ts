import { describe, expect, it } from "vitest";
import { fixedT } from "./i18next.server";
import { languageInfo } from "./language-table";

// Plural forms come from i18next's CLDR rules for the language's BCP 47 tag,
// which the product's own code (jp, prt) would not give (Intl has no "prt").
describe("plural forms by the language's tag", () => {
  it.each([
    ["en", 0, "0 texts"],
    ["en", 1, "1 text"],
    ["prt", 0, "0 texto"], // Portuguese counts 0 as "one"
    ["prt", 2, "2 textos"],
    ["fr", 1, "1 texte"],
    ["fr", 1_000_000, "1000000 de textes"], // French "many"
    ["jp", 1, "1件のテキスト"], // Japanese has only "other"
    ["de", 1, "1 Text"],
  ])("%s, %i", (code, count, want) => {
    const t = fixedT(languageInfo(code)!, ["Settings.Translations"]);
    expect(t("results", { count })).toBe(want);
  });

  it("puts the shop's own wording over the shipped text", () => {
    const t = fixedT(languageInfo("de")!, ["Account.Common"], { "Account.Common": { "landing.join": "Los!" } });
    expect(t("landing.join")).toBe("Los!");
    expect(t("landing.login")).toBe("Anmelden");
  });
});
