import { describe, expect, it } from "vitest";
import { filterCatalogue, type CatalogueEntry } from "./translation-catalogue";

const entries: CatalogueEntry[] = [
  { namespace: "Global", key: "save", english: "Save", shipped: "Speichern" },
  { namespace: "Global", key: "login.submit", english: "Log in", shipped: "Anmelden" },
  {
    namespace: "Account.Common",
    key: "landing.heading",
    english: "Earn with {{shop}}",
    shipped: "Verdienen Sie mit {{shop}}",
  },
  { namespace: "Account.Common", key: "signup.submit", english: "Sign up", shipped: "Registrieren" },
  { namespace: "Account.Sales", key: "title", english: "Sales", shipped: "Verkäufe" },
];
const overrides = { "Account.Common": { "signup.submit": "Jetzt mitmachen" } };

describe("the key list of Settings > Translations", () => {
  it.each([
    ["everything", {}, ["save", "login.submit", "landing.heading", "signup.submit", "title"]],
    ["one namespace", { namespace: "Global" }, ["save", "login.submit"]],
    ["by key", { q: "LOGIN" }, ["login.submit"]],
    ["by English text", { q: "earn" }, ["landing.heading"]],
    ["by shipped text, accents folded", { q: "verkaufe" }, ["title"]],
    ["by the merchant's text", { q: "mitmachen" }, ["signup.submit"]],
    ["by namespace and key", { q: "account.common:signup" }, ["signup.submit"]],
    ["every word must match", { q: "account sign" }, ["signup.submit"]],
    ["only changed texts", { changed: true }, ["signup.submit"]],
    ["nothing", { q: "nothing like this" }, []],
  ])("%s", (_name, filter, keys) => {
    const page = filterCatalogue(entries, overrides, filter, 1, 25);
    expect(page.rows.map((r) => r.key)).toEqual(keys);
    expect(page.total).toBe(keys.length);
  });

  it("shows the merchant's text next to the shipped one", () => {
    const [row] = filterCatalogue(entries, overrides, { changed: true }, 1, 25).rows;
    expect(row).toMatchObject({ shipped: "Registrieren", override: "Jetzt mitmachen" });
  });

  it.each([
    [1, ["save", "login.submit"]],
    [3, ["title"]],
    [99, ["title"]], // past the end: the last page
    [0, ["save", "login.submit"]],
  ])("page %i of 3 (2 per page)", (page, keys) => {
    const result = filterCatalogue(entries, {}, {}, page, 2);
    expect(result.rows.map((r) => r.key)).toEqual(keys);
    expect(result.pages).toBe(3);
  });
});
