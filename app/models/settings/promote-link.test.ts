import { describe, expect, it } from "vitest";
import { defaultLandingPath, promoteLinkSchema, readPromoteLink, showsCodes, withUtm } from "./promote-link";

const base = readPromoteLink("{}", "ref");

describe("promote link settings", () => {
  it.each([
    ["{}", "aff", { destination: "home", link_format: "short", referral_param: "aff" }],
    ["not json", "ref", { destination: "home", utm_source: "" }],
    [
      JSON.stringify({ promoteLink: { destination: "product", destination_handle: "hat" } }),
      "ref",
      { destination: "product", destination_handle: "hat" },
    ],
    // A stored value that no longer validates falls back to the defaults.
    [JSON.stringify({ promoteLink: { destination: "page", destination_handle: "" } }), "ref", { destination: "home" }],
  ])("reads %s", (json, param, expected) => {
    expect(readPromoteLink(json, param)).toMatchObject(expected);
  });

  it.each([
    [{}, "/"],
    [{ destination: "page", destination_handle: "about" }, "/pages/about"],
    [
      { destination: "product", destination_handle: "red-hat", utm_source: "affiliate" },
      "/products/red-hat?utm_source=affiliate",
    ],
    [
      { utm_source: "aff", utm_medium: "link", utm_campaign: "spring" },
      "/?utm_source=aff&utm_medium=link&utm_campaign=spring",
    ],
  ] as const)("lands %j on %s", (change, path) => {
    expect(defaultLandingPath({ ...base, ...change })).toBe(path);
  });

  it.each([
    ["/products/x?variant=1#top", "/products/x?variant=1&utm_source=s#top"],
    ["/a?utm_source=old", "/a?utm_source=s"],
  ])("appends UTM to %s", (path, expected) => {
    expect(withUtm(path, { utm_source: "s", utm_medium: "", utm_campaign: "" })).toBe(expected);
  });

  it.each([
    [{ auto_apply_discount: false, show_codes: false }, true],
    [{ auto_apply_discount: true, show_codes: true }, true],
    [{ auto_apply_discount: true, show_codes: false }, false],
  ])("%j shows codes: %s", (change, expected) => {
    expect(showsCodes({ ...base, ...change })).toBe(expected);
  });

  it("reads the auto-apply column and defaults to showing codes", () => {
    expect(readPromoteLink("{}", "ref", true)).toMatchObject({ auto_apply_discount: true, show_codes: true });
    expect(readPromoteLink("not json", "ref", true)).toMatchObject({ auto_apply_discount: true });
  });

  it.each([
    [{ auto_apply_discount: "on" }, "auto_apply_discount"],
    [{ show_codes: null }, "show_codes"],
    [{ destination: "product", destination_handle: "" }, "destination_handle"],
    [{ destination_handle: "a/b" }, "destination_handle"],
    [{ utm_source: "a b" }, "utm_source"],
    [{ referral_param: "1x" }, "referral_param"],
  ])("refuses %j", (change, field) => {
    const r = promoteLinkSchema.safeParse({ ...base, ...change });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual([field]);
  });
});
