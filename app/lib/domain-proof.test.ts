import { describe, expect, it } from "vitest";
import { proofFound, proofRecord } from "./domain-proof";

describe("proofRecord", () => {
  it("names a record under the domain, since the domain itself is a CNAME", () => {
    expect(proofRecord("affiliates.shop.example", "tok_123")).toEqual({
      name: "_affiliate-portal.affiliates.shop.example",
      value: "affiliate-portal-verification=tok_123",
    });
  });
});

describe("proofFound", () => {
  const expected = "affiliate-portal-verification=abc123";
  it.each([
    ["no records", [], false],
    ["the value", [["affiliate-portal-verification=abc123"]], true],
    ["among other records", [["v=spf1 -all"], ["affiliate-portal-verification=abc123"]], true],
    ["split into chunks (255-byte strings)", [["affiliate-portal-", "verification=abc123"]], true],
    ["pasted with quotes and spaces", [[' "affiliate-portal-verification=abc123" ']], true],
    ["another shop's token", [["affiliate-portal-verification=abc1234"]], false],
    ["the token alone", [["abc123"]], false],
    ["a prefix of the value", [["affiliate-portal-verification=abc"]], false],
    ["chunks of two records are not joined", [["affiliate-portal-"], ["verification=abc123"]], false],
  ] as const)("%s", (_label, records, found) => {
    expect(
      proofFound(
        records.map((r) => [...r]),
        expected,
      ),
    ).toBe(found);
  });
});
