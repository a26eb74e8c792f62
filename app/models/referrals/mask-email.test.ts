import { describe, expect, it } from "vitest";
import { maskEmail } from "./mask-email";

describe("maskEmail", () => {
  it.each([
    ["anna.friend@example.com", "an***@ex***.com"],
    ["a@b.co", "a***@b***.co"],
    ["bo@mail.example.org", "b***@ma***.org"],
    ["jörg@bücher.de", "jö***@bü***.de"],
    ["not-an-email", "***"],
    ["", ""],
    [null, ""],
  ])("%s → %s", (input, masked) => {
    expect(maskEmail(input)).toBe(masked);
  });
});
