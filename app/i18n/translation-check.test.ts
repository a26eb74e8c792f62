import { describe, expect, it } from "vitest";
import { checkNamespace, expectedKeys, untranslatedShare } from "./translation-check";

const en = {
  title: "Payouts",
  sent_one: "{{count}} payout sent to <b>{{name}}</b>.",
  sent_other: "{{count}} payouts sent to <b>{{name}}</b>.",
  nested: { hello: "Hello {{name}}, see $t(Global:help)" },
};

describe("translation check", () => {
  it.each([
    ["ja", ["sent_other"]],
    ["ru", ["sent_one", "sent_few", "sent_many", "sent_other"]],
    ["ar", ["sent_zero", "sent_one", "sent_two", "sent_few", "sent_many", "sent_other"]],
  ])("expands plural keys to the CLDR categories of %s", (tag, keys) => {
    const expected = [...expectedKeys({ sent_one: "a", sent_other: "b", x: "y" }, tag).keys()];
    expect(expected.filter((k) => k.startsWith("sent_")).sort()).toEqual([...keys].sort());
  });

  it.each([
    [
      "a complete German file",
      {
        title: "Auszahlungen",
        sent_one: "Eine Auszahlung an <b>{{name}}</b> gesendet.",
        sent_other: "{{count}} Auszahlungen an <b>{{name}}</b> gesendet.",
        nested: { hello: "Hallo {{name}}, siehe $t(Global:help)" },
      },
      [],
    ],
    [
      "a missing key",
      { title: "Auszahlungen", sent_one: "x <b>{{name}}</b>", sent_other: "{{count}} <b>{{name}}</b>" },
      ["nested.hello: missing"],
    ],
    [
      "an extra key",
      {
        ...{
          title: "A",
          sent_one: "<b>{{name}}</b>",
          sent_other: "{{count}} <b>{{name}}</b>",
          nested: { hello: "{{name}} $t(Global:help)" },
        },
        extra: "x",
      },
      ["extra: not in English"],
    ],
    [
      "a renamed placeholder",
      {
        title: "A",
        sent_one: "<b>{{name}}</b>",
        sent_other: "{{anzahl}} <b>{{name}}</b>",
        nested: { hello: "{{name}} $t(Global:help)" },
      },
      ["sent_other: placeholders differ"],
    ],
    [
      "a lost tag",
      {
        title: "A",
        sent_one: "<b>{{name}}</b>",
        sent_other: "{{count}} {{name}}",
        nested: { hello: "{{name}} $t(Global:help)" },
      },
      ["sent_other: tags differ"],
    ],
    [
      "a lost nesting",
      {
        title: "A",
        sent_one: "<b>{{name}}</b>",
        sent_other: "{{count}} <b>{{name}}</b>",
        nested: { hello: "{{name}}" },
      },
      ["nested.hello: $t() nestings differ"],
    ],
    [
      "an empty value",
      {
        title: " ",
        sent_one: "<b>{{name}}</b>",
        sent_other: "{{count}} <b>{{name}}</b>",
        nested: { hello: "{{name}} $t(Global:help)" },
      },
      ["title: empty or not a string"],
    ],
  ])("German: %s", (_name, de, want) => {
    const got = checkNamespace(en, de, "de").map((p) => `${p.key}: ${p.message}`);
    expect(got.map((g) => g.slice(0, want.find((w) => g.startsWith(w))?.length ?? g.length))).toEqual(want);
  });

  it("counts multi-word strings left in English", () => {
    const share = untranslatedShare(en, { ...en, title: "Auszahlungen" });
    expect(share.total).toBe(3);
    expect(share.same.sort()).toEqual(["nested.hello", "sent_one", "sent_other"]);
  });
});
