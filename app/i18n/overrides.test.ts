import { describe, expect, it } from "vitest";
import { languageInfo } from "./language-table";
import { applyOverrides, isOverridableNamespace, mergeTrees, overridableNamespaces } from "./overrides";

describe("merchant overrides", () => {
  it("replace texts by flat key in a copy, leaving the cached tree as it was", () => {
    const shipped = { a: "A", nested: { b: "B", c: "C" }, other: { d: "D" } };
    const frozen = JSON.stringify(shipped);
    const out = applyOverrides(shipped, { "nested.b": "Mine", a: "Also mine" });
    expect(out).toEqual({ a: "Also mine", nested: { b: "Mine", c: "C" }, other: { d: "D" } });
    expect(JSON.stringify(shipped)).toBe(frozen);
    // Untouched branches are shared, not copied.
    expect(out.other).toBe(shipped.other);
  });

  it("skip keys the files no longer have", () => {
    expect(applyOverrides({ a: "A" }, { "gone.deep": "x", gone: "y" })).toEqual({ a: "A" });
  });

  it("merge a language over English, keeping English where the language lacks a key", () => {
    expect(mergeTrees({ a: "A", n: { b: "B", c: "C" } }, { n: { b: "Bé" } })).toEqual({
      a: "A",
      n: { b: "Bé", c: "C" },
    });
  });

  it.each([
    ["Account.Common", true],
    ["Global", true],
    ["Mails", true],
    ["Campaigns", false],
    ["Portal.TopBar", false],
  ])("%s may be overridden: %s", (ns, want) => {
    expect(isOverridableNamespace(ns)).toBe(want);
  });

  it("offer Mails only where the language ships it", () => {
    expect(overridableNamespaces(languageInfo("de")!)).toContain("Mails");
    expect(overridableNamespaces(languageInfo("ar")!)).not.toContain("Mails");
    expect(overridableNamespaces(languageInfo("ar")!)).toContain("Account.Sales");
    expect(overridableNamespaces(languageInfo("wo")!)).toEqual(["Global"]);
  });
});
