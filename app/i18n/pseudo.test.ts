import { describe, expect, it } from "vitest";
import { pseudoString, pseudoTree } from "./pseudo";
import { checkNamespace } from "./translation-check";

describe("pseudo-locale", () => {
  it.each([
    ["Save", /^\[Šàṽé \S{2}\]$/],
    ["Welcome {{name}}, see <b>terms</b>", /^\[Ŵéļçöɱé \{\{name\}\}, šéé <b>ţéŕɱš<\/b> .+\]$/],
    ["Go to https://example.com/a?b or /products/x", /https:\/\/example\.com\/a\?b .+ \/products\/x /],
    ["$t(Global:save) now", /^\[\$t\(Global:save\) ñöŵ .+\]$/],
  ])("%s", (english, want) => {
    expect(pseudoString(english)).toMatch(want);
  });

  it("is about 40 % longer than English, and never shorter", () => {
    const english = "Approved commissions add up to your balance, which the store pays out.";
    const pseudo = pseudoString(english);
    const growth = (pseudo.length - english.length) / english.length;
    expect(growth).toBeGreaterThanOrEqual(0.4);
    expect(growth).toBeLessThan(0.5);
  });

  it("keeps every key, placeholder and tag, so the translation check passes it", () => {
    const en = { a: "{{count}} sale", b: { c: "Hello <i>{{name}}</i>" }, d_one: "One", d_other: "{{count}} more" };
    expect(checkNamespace(en, pseudoTree(en), "en")).toEqual([]);
  });
});
