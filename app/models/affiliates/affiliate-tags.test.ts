import { describe, expect, it } from "vitest";
import { normalizeTag, parseTagList, TAGS_PER_AFFILIATE } from "./affiliate-tags";

describe("affiliate tags", () => {
  it.each([
    ["  VIP ", "vip"],
    ["TikTok   Creators", "tiktok creators"],
    ["été", "été"],
  ])("%j is stored as %j", (raw, tag) => expect(normalizeTag(raw)).toBe(tag));

  it.each([
    ["vip, TikTok ,, vip", ["vip", "tiktok"]],
    ["", []],
    [undefined, []],
    [" , ", []],
  ] as const)("the list %j is %j", (raw, tags) => {
    expect(parseTagList(raw, "add_tags")).toEqual({ ok: true, tags });
  });

  it("refuses a tag longer than 40 characters and more tags than an affiliate may have", () => {
    expect(parseTagList(`ok, ${"x".repeat(41)}`, "add_tags")).toEqual({
      ok: false,
      problem: `add_tags: the tag "${"x".repeat(41)}" is longer than 40 characters`,
    });
    const many = Array.from({ length: TAGS_PER_AFFILIATE + 1 }, (_, i) => `t${i}`).join(",");
    expect(parseTagList(many, "remove_tags")).toEqual({ ok: false, problem: "remove_tags: at most 50 tags at once" });
  });
});
