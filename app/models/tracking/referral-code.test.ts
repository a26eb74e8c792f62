import { describe, expect, it } from "vitest";
import { checkReferralCode, legacyReferralCode, normalizeReferralCode, parseReferralCode } from "./referral-code";

describe("normalizeReferralCode", () => {
  it.each([
    ["abc", "ABC"],
    ["  jane-10 ", "JANE-10"],
    ["Mixed_Case", "MIXED_CASE"],
    ["", ""],
  ])("%j becomes %j", (raw, expected) => {
    expect(normalizeReferralCode(raw)).toBe(expected);
  });
});

describe("checkReferralCode", () => {
  it.each([
    ["abc", "ABC"],
    ["JANE10", "JANE10"],
    [" jane_doe-2024 ", "JANE_DOE-2024"],
    ["A".repeat(32), "A".repeat(32)],
    ["123", "123"],
  ])("accepts %j as %j", (raw, code) => {
    expect(checkReferralCode(raw)).toEqual({ ok: true, code });
  });

  it.each([
    ["", "Enter a referral code."],
    ["   ", "Enter a referral code."],
    [undefined, "Enter a referral code."],
    [42, "Enter a referral code."],
    ["ab", "A referral code has at least 3 characters."],
    ["A".repeat(33), "A referral code has at most 32 characters."],
    ["jane doe", 'A referral code may only contain letters, digits, "_" and "-".'],
    ["jane.doe", 'A referral code may only contain letters, digits, "_" and "-".'],
    ["jäne", 'A referral code may only contain letters, digits, "_" and "-".'],
    ["../etc", 'A referral code may only contain letters, digits, "_" and "-".'],
    ["<script>", 'A referral code may only contain letters, digits, "_" and "-".'],
  ])("rejects %j with %j", (raw, message) => {
    expect(checkReferralCode(raw)).toEqual({ ok: false, message });
  });

  it("parseReferralCode gives the code or null", () => {
    expect(parseReferralCode(" ab1 ")).toBe("AB1");
    expect(parseReferralCode("a b")).toBeNull();
  });
});

describe("legacyReferralCode (other apps' link codes kept as aliases)", () => {
  it.each([
    ["2435465.xNnJWu9WKq", "2435465-XNNJWU9WKQ"],
    ["123456.abc123", "123456-ABC123"],
    [" 921 ", "921"],
    ["jane10", "JANE10"],
    ["..", null],
    ["a b", null],
    ["x".repeat(40), null],
    [undefined, null],
  ])("%j is kept as %j", (raw, expected) => {
    expect(legacyReferralCode(raw)).toBe(expected);
  });
});
