import { describe, expect, it } from "vitest";
import {
  dateTimeFormatIn,
  formatDateIn,
  formatFileSizeIn,
  formatMoneyIn,
  formatNumberIn,
  minorToDecimal,
} from "./format";

// Intl separates with narrow/no-break spaces in some languages; compare on plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("minorToDecimal", () => {
  it.each([
    [0, 2, "0.00"],
    [5, 2, "0.05"],
    [-123456, 2, "-1234.56"],
    [1234, 0, "1234"],
    [1, 3, "0.001"],
    [9007199254740991, 2, "90071992547409.91"],
  ])("%i with %i decimals is %s", (minor, exponent, want) => {
    expect(minorToDecimal(minor, exponent)).toBe(want);
  });
});

describe("formatMoneyIn", () => {
  it.each([
    ["en", 123456, "USD", "$1,234.56"],
    ["de", 123456, "EUR", "1.234,56 €"],
    ["de", 123456, "USD", "1.234,56 $"],
    ["fr", 123456, "EUR", "1 234,56 €"],
    ["ja", 1234, "JPY", "￥1,234"],
    ["pt-BR", -990, "BRL", "-R$ 9,90"],
    ["en", 1, "KWD", "KWD 0.001"],
    ["en-XA", 100, "USD", "$1.00"],
  ])("%s: %i %s is %s", (tag, minor, currency, want) => {
    expect(plain(formatMoneyIn(tag, minor, currency))).toBe(want);
  });

  it("shows an unknown currency code after the number instead of failing", () => {
    expect(formatMoneyIn("en", 1250, "XYZ1")).toBe("12.5 XYZ1");
  });
});

describe("formatNumberIn and formatDateIn", () => {
  it.each([
    ["en", "1,234,567"],
    ["de", "1.234.567"],
    ["hi", "12,34,567"],
  ])("%s groups digits its own way", (tag, want) => {
    expect(plain(formatNumberIn(tag, 1234567))).toBe(want);
  });

  it.each([
    ["en", "America/New_York", false, "Dec 31, 2024"],
    ["de", "Europe/Berlin", false, "01.01.2025"],
    ["ja", "Asia/Tokyo", true, "2025/01/01 12:00"],
    ["de", "Not/AZone", false, "01.01.2025"],
  ])("%s in %s (time: %s)", (tag, zone, withTime, want) => {
    expect(plain(formatDateIn(tag, "2025-01-01T03:00:00Z", zone, withTime))).toBe(want);
  });
});

describe("formatFileSizeIn", () => {
  it.each([
    ["en", 0, "1 KB"],
    ["en", 300, "1 KB"],
    ["en", 1536, "2 KB"],
    ["en", 1024 * 1024 - 1, "1,024 KB"],
    ["en", 1024 * 1024, "1 MB"],
    ["en", 1.45 * 1024 * 1024, "1.5 MB"],
    ["de", 2.25 * 1024 * 1024, "2,3 MB"],
    ["de", 1_234_567 * 1024, "1.205,6 MB"],
  ])("%s: %i bytes is %s", (tag, bytes, want) => {
    expect(formatFileSizeIn(tag, bytes)).toBe(want);
  });
});

describe("dateTimeFormatIn", () => {
  it("formats as a new Intl.DateTimeFormat of the same options would", () => {
    const date = new Date("2026-03-08T07:30:00Z");
    for (const [tag, options] of [
      ["en", { hour: "numeric", timeZone: "UTC" }],
      ["de", { month: "short", day: "numeric", timeZone: "UTC" }],
      ["ja", { month: "short", year: "numeric", timeZone: "Asia/Tokyo" }],
    ] as const) {
      expect(dateTimeFormatIn(tag, options).format(date)).toBe(new Intl.DateTimeFormat(tag, options).format(date));
    }
  });

  it("keeps one formatter per language and options", () => {
    const options = { month: "short", day: "numeric", timeZone: "UTC" } as const;
    expect(dateTimeFormatIn("fr", { ...options })).toBe(dateTimeFormatIn("fr", { ...options }));
    expect(dateTimeFormatIn("fr", options)).not.toBe(dateTimeFormatIn("it", options));
    expect(dateTimeFormatIn("fr", options)).not.toBe(dateTimeFormatIn("fr", { ...options, timeZone: "Asia/Tokyo" }));
  });
});
