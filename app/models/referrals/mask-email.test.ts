import { describe, expect, it } from "vitest";
import { maskEmail, maskEmailForAdvocate } from "./mask-email";

describe("maskEmail", () => {
  it.each([
    ["anna@example.com", "an***@example.com"],
    ["Anna.Smith+promo@Example.com", "An***@Example.com"],
    ["bob@shop.test", "b***@shop.test"],
    ["al@shop.test", "a***@shop.test"],
    ["x@shop.test", "***@shop.test"],
    ["  anna@example.com ", "an***@example.com"],
    ["élodie@exemple.fr", "él***@exemple.fr"],
    ["😀😀😀😀@example.com", "😀😀***@example.com"],
    ["weird@name@example.com", "we***@example.com"],
    ["@example.com", "***@example.com"],
    ["not-an-email", "no***"],
    ["", ""],
    ["   ", ""],
    [null, ""],
    [undefined, ""],
  ])("%s → %s", (input, masked) => {
    expect(maskEmail(input)).toBe(masked);
  });

  it("never shows the whole local part", () => {
    for (const local of ["a", "ab", "abc", "abcd", "abcdefghij"]) {
      const masked = maskEmail(`${local}@example.com`);
      expect(masked.slice(0, masked.indexOf("***"))).not.toBe(local);
    }
  });
});

describe("maskEmailForAdvocate", () => {
  it.each([
    ["anna.friend@example.com", "an***@ex***.com"],
    ["a@b.co", "***@***.co"],
    ["ab@cd.io", "a***@c***.io"],
    ["bo@mail.example.org", "b***@ma***.org"],
    ["jörg@bücher.de", "jö***@bü***.de"],
    ["not-an-email", "***"],
    ["", ""],
    [null, ""],
  ])("%s → %s", (input, masked) => {
    expect(maskEmailForAdvocate(input)).toBe(masked);
  });

  it("never shows a whole local part or host, however short", () => {
    for (const part of ["x", "xy", "xyz", "abcdefghij"]) {
      const masked = maskEmailForAdvocate(`${part}@${part}.com`);
      const [local, domain] = masked.split("@");
      expect(local!.replace("***", "")).not.toBe(part);
      expect(domain!.replace("***.com", "")).not.toBe(part);
    }
  });
});
