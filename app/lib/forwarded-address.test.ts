import { describe, expect, it } from "vitest";
import { forwardedEntry } from "./forwarded-address";

describe("forwardedEntry", () => {
  it.each([
    [null, 0, null],
    ["", 0, null],
    ["203.0.113.9", 0, "203.0.113.9"],
    ["1.1.1.1, 203.0.113.9", 0, "203.0.113.9"],
    // The first entry is the client's to write: rotating it changes nothing.
    ["9.9.9.9, 2.2.2.2, 203.0.113.9", 0, "203.0.113.9"],
    // One proxy of our own behind Shopify's: the entry before the last.
    ["9.9.9.9, 203.0.113.9, 23.227.38.1", 1, "203.0.113.9"],
    ["23.227.38.1", 1, null],
    [" 2001:db8::1 ,, ", 0, "2001:db8::1"],
    ["x".repeat(65), 0, null],
  ])("%j from %i hops from the end is %j", (header, hops, expected) => {
    expect(forwardedEntry(header, hops)).toBe(expected);
  });
});
