import { describe, expect, it } from "vitest";
import { emailKey } from "./email-key";

describe("emailKey", () => {
  it.each([
    ["Anna@Example.com", "anna@example.com"],
    ["anna+friends@example.com", "anna@example.com"],
    ["a.n.n.a@example.com", "a.n.n.a@example.com"],
    ["A.nna+x@gmail.com", "anna@gmail.com"],
    ["anna@googlemail.com", "anna@gmail.com"],
    ["  bob@shop.test ", "bob@shop.test"],
    ["+only@example.com", "+only@example.com"],
    ["not-an-email", "not-an-email"],
  ])("%s → %s", (input, key) => {
    expect(emailKey(input)).toBe(key);
  });
});
