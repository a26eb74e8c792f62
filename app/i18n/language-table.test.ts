import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_LANGUAGES, LANGUAGES, PORTAL_LANGUAGES, languageByTag, languageInfo } from "./language-table";

describe("the language table", () => {
  it("has about 100 languages, each code and tag once", () => {
    expect(LANGUAGES.length).toBe(100);
    expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(LANGUAGES.length);
    expect(new Set(LANGUAGES.map((l) => l.tag)).size).toBe(LANGUAGES.length);
  });

  it("maps the product's codes to canonical BCP 47 tags", () => {
    for (const l of LANGUAGES) expect(Intl.getCanonicalLocales(l.tag)[0], l.code).toBe(l.tag);
    expect(["jp", "prt", "vn", "zh", "pt", "tm"].map((c) => languageInfo(c)?.tag)).toEqual([
      "ja",
      "pt-BR",
      "vi",
      "zh-CN",
      "pt-PT",
      "tk",
    ]);
    expect(languageByTag("JA")?.code).toBe("jp");
  });

  it("has the spec's full set and Global-only codes", () => {
    expect(ADMIN_LANGUAGES.map((l) => l.code).sort()).toEqual(
      ["de", "en", "es", "fr", "it", "jp", "nl", "prt", "vn", "zh"].sort(),
    );
    expect(
      LANGUAGES.filter((l) => l.coverage === "global")
        .map((l) => l.code)
        .sort(),
    ).toEqual(["bo", "dz", "ny", "pt", "rn", "tm", "wo"]);
    expect(PORTAL_LANGUAGES.length).toBe(93);
  });

  it("writes right to left exactly the right-to-left scripts", () => {
    expect(
      LANGUAGES.filter((l) => l.dir === "rtl")
        .map((l) => l.code)
        .sort(),
    ).toEqual(["ar", "fa", "he", "ps", "ur"]);
  });

  it("has a folder of files for every code", () => {
    for (const l of LANGUAGES)
      expect(existsSync(path.resolve("public/locales", l.code, "Global.json")), l.code).toBe(true);
  });
});
