import type { EntryContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../config.server";
import { fixedT, pageI18n } from "./i18next.server";
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

// A document's i18next instance, as entry.server.tsx gets it: the matched
// routes' handles name the namespaces, the root loader the language.
function documentContext(code: string, namespaces: string[], overrides = {}) {
  return {
    staticHandlerContext: {
      matches: [{ route: { id: "root" } }, { route: { id: "routes/page" } }],
      loaderData: { root: { locale: { code, overrides } } },
      errors: null,
    },
    routeModules: { root: { handle: { i18n: ["Global"] } }, "routes/page": { handle: { i18n: namespaces } } },
  } as unknown as EntryContext;
}

describe("a page's instance remembers plain look-ups", () => {
  // The payload names where translations load from (the app's configuration).
  beforeAll(() => {
    vi.stubEnv("SESSION_SECRET", "s".repeat(32));
    vi.stubEnv("SHOPIFY_API_KEY", "key");
    vi.stubEnv("SHOPIFY_API_SECRET", "secret");
    resetConfigForTests();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("gives what i18next gives, once remembered too", () => {
    const { instance } = pageI18n(documentContext("de", ["Sales"]));
    const fresh = fixedT(languageInfo("de")!, ["Global", "Sales"]);
    const t = instance.getFixedT(null, "Sales");
    for (let round = 0; round < 2; round++) {
      expect(t("statuses.pending")).toBe(fresh("Sales:statuses.pending"));
      expect(t("Sales:statuses.paid")).toBe(fresh("Sales:statuses.paid"));
      expect(t("statuses.nothing", { defaultValue: "one" })).toBe("one");
      expect(t("statuses.nothing", { defaultValue: "two" })).toBe("two");
      expect(instance.getFixedT(null, "Global")("statuses.pending")).toBe(fresh("Global:statuses.pending"));
    }
  });

  it("remembers look-ups with values per value (count, interpolation), and passes objects through", () => {
    const { instance } = pageI18n(documentContext("en", ["Sales"]));
    const t = instance.getFixedT(null, "Sales");
    for (let round = 0; round < 2; round++) {
      expect(t("claims.titleOpen", { count: 1 })).toBe("Claims (1 open)");
      expect(t("claims.titleOpen", { count: 3 })).toBe("Claims (3 open)");
      expect(t("bulk.skipped", { count: 2 })).toBe(
        fixedT(languageInfo("en")!, ["Sales"])("bulk.skipped", { count: 2 }),
      );
      expect(t("nothing.here", { defaultValue: "{{who}} sold", who: "Ann" })).toBe("Ann sold");
      expect(t("nothing.here", { defaultValue: "{{who}} sold", who: "Bo" })).toBe("Bo sold");
      expect(t("statuses", { returnObjects: true })).toMatchObject({ paid: "Paid" });
    }
  });

  it("keeps each language's and each shop's words apart", () => {
    const en = pageI18n(documentContext("en", ["Sales"])).instance.getFixedT(null, "Sales");
    const de = pageI18n(documentContext("de", ["Sales"])).instance.getFixedT(null, "Sales");
    const own = pageI18n(documentContext("en", ["Sales"], { Sales: { "statuses.paid": "Settled" } }));
    expect(en("statuses.paid")).toBe("Paid");
    expect(de("statuses.paid")).not.toBe("Paid");
    expect(own.instance.getFixedT(null, "Sales")("statuses.paid")).toBe("Settled");
    expect(en("statuses.paid")).toBe("Paid");
  });

  it("sends the same payload to every document of the instance", () => {
    const first = pageI18n(documentContext("en", ["Sales"]));
    const again = pageI18n(documentContext("en", ["Sales"]));
    expect(again.payload).toBe(first.payload);
    const payload = JSON.parse(first.payload!) as { tag: string; resources: Record<string, unknown> };
    expect(payload.tag).toBe("en");
    expect(Object.keys(payload.resources).sort()).toEqual(["Global", "Sales"]);
  });
});
