import { describe, expect, it } from "vitest";
import { shopSettingsObject, withShopSetting } from "./shop-settings";

describe("shop settings JSON", () => {
  it.each([
    ["empty text", "", {}],
    ["null", null, {}],
    ["an object", '{"a":1}', { a: 1 }],
    ["an array", "[1,2]", {}],
    ["a number", "42", {}],
    ["broken JSON", "{a:", {}],
  ])("reads %s", (_name, text, expected) => {
    expect(shopSettingsObject(text)).toEqual(expected);
  });

  it.each([
    ["adds a key", '{"a":1}', "b", { x: 2 }, { a: 1, b: { x: 2 } }],
    ["replaces only its key", '{"a":1,"b":{"old":true}}', "b", { x: 2 }, { a: 1, b: { x: 2 } }],
    ["replaces a broken blob", "{a:", "b", 3, { b: 3 }],
  ])("%s", (_name, text, key, value, expected) => {
    expect(JSON.parse(withShopSetting(text, key, value))).toEqual(expected);
  });
});
