import { describe, expect, it } from "vitest";
import { englishMessage } from "../i18n/messages.server";
import { formatDecimalInput, parseDecimalInput } from "./decimal-input";

describe("parseDecimalInput", () => {
  it.each([
    ["12.5", 2, 1250],
    ["12.50", 2, 1250],
    ["0.29", 2, 29],
    [" 7 ", 2, 700],
    ["7,25", 2, 725],
    [".5", 2, 50],
    ["3.", 2, 300],
    ["100", 2, 10_000],
    ["0", 2, 0],
    ["1234", 0, 1234],
    ["1.234", 3, 1234],
  ])("%s with %i decimals is %i", (text, decimals, value) => {
    expect(parseDecimalInput(text, decimals, 100_000_000)).toEqual({ ok: true, value });
  });

  it.each([
    ["", 2, "Enter a number"],
    ["abc", 2, "Enter a number such as 12.5"],
    ["-5", 2, "Enter a number such as 12.5"],
    ["1e3", 2, "Enter a number such as 12.5"],
    ["1,000.00", 2, "Enter a number such as 12.5"],
    ["12.345", 2, "Use at most 2 decimals"],
    ["1.5", 0, "Use a whole number"],
    ["100.01", 2, "Use at most 100"],
  ])("refuses %j (%i decimals) with %j", (text, decimals, message) => {
    // The message is a translation key; this is its English.
    const result = parseDecimalInput(text, decimals, 10_000);
    expect(result.ok).toBe(false);
    expect(!result.ok && englishMessage(result.message)).toBe(message);
  });
});

describe("formatDecimalInput", () => {
  it.each([
    [1250, 2, "12.5"],
    [1200, 2, "12"],
    [5, 2, "0.05"],
    [0, 2, "0"],
    [1234, 0, "1234"],
    [-150, 2, "-1.5"],
  ])("%i with %i decimals is %s", (value, decimals, text) => {
    expect(formatDecimalInput(value, decimals)).toBe(text);
  });

  it("round-trips every basis-point value", () => {
    for (let bps = 0; bps <= 10_000; bps += 7) {
      expect(parseDecimalInput(formatDecimalInput(bps, 2), 2, 10_000)).toEqual({ ok: true, value: bps });
    }
  });
});
