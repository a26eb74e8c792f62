import { describe, expect, it } from "vitest";
import { cleanTag, parseStoredTags, readLinkTags, readLinkTagsOf, NO_TAGS } from "./link-tags";

describe("cleanTag", () => {
  it.each([
    [null, 10, null],
    ["", 10, null],
    ["  ig-story  ", 10, "ig-story"],
    ["a\u0000b\u200bc\u202e", 10, "abc"],
    ["\u0001\u0002", 10, null],
    ["abcdefghijkl", 5, "abcde"],
    ["😀😀😀", 2, "😀😀"],
    ["ab   cd", 3, "ab"],
  ] as const)("%j (max %i) → %j", (raw, max, expected) => {
    expect(cleanTag(raw, max)).toBe(expected);
  });
});

describe("readLinkTags", () => {
  const read = (q: string) => readLinkTags(new URLSearchParams(q));

  it("has no tags on a plain link", () => {
    expect(read("to=/products/x")).toBe(NO_TAGS);
  });

  it("reads sub_id, sub1..sub5, utm_* and the QR marker", () => {
    const tags = read(
      "sub_id=ig-bio&sub1=a&sub5=e&utm_source=instagram&utm_medium=social&utm_campaign=spring&utm_term=t&utm_content=c&via=qr",
    );
    expect(tags.subId).toBe("ig-bio");
    expect(tags.qr).toBe(true);
    expect(JSON.parse(tags.linkTags!)).toEqual({
      sub1: "a",
      sub5: "e",
      utm_source: "instagram",
      utm_medium: "social",
      utm_campaign: "spring",
      utm_term: "t",
      utm_content: "c",
    });
  });

  it("drops empty and unprintable values and cuts long ones", () => {
    const tags = read(`sub_id=%00%01&sub1=${"x".repeat(100)}&utm_source=${"y".repeat(200)}&sub2=`);
    expect(tags.subId).toBeNull();
    expect(JSON.parse(tags.linkTags!)).toEqual({ sub1: "x".repeat(64), utm_source: "y".repeat(128) });
  });

  it("ignores unknown parameters and other via values", () => {
    expect(read("sub6=a&utm_id=b&via=email")).toBe(NO_TAGS);
  });

  it("keeps the first of a repeated parameter", () => {
    expect(read("sub_id=one&sub_id=two").subId).toBe("one");
  });
});

describe("readLinkTagsOf", () => {
  it.each([
    [null, null],
    ["https://shop.example/", null],
    ["https://shop.example/p?ref=A&sub_id=tiktok#top", "tiktok"],
    ["https://shop.example/p#x?sub_id=nope", null],
  ] as const)("%j → sub_id %j", (url, subId) => {
    expect(readLinkTagsOf(url).subId).toBe(subId);
  });
});

describe("parseStoredTags", () => {
  it.each([
    [null, {}],
    ["not json", {}],
    ["[1]", {}],
    ['{"sub1":"a","x":"b","utm_source":3}', { sub1: "a" }],
  ] as const)("%j → %j", (raw, expected) => {
    expect(parseStoredTags(raw)).toEqual(expected);
  });
});
