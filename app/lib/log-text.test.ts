import { describe, expect, it } from "vitest";
import { errorForLog, logText } from "./log-text";

describe("logText", () => {
  it.each([
    ["plain text", "plain text"],
    ["a\nb", "a\\nb"],
    ["a\r\n[error] forged", "a\\r\\n[error] forged"],
    ["tab\there", "tab\\there"],
    ["nul\u0000bell\u0007", "nul\\u0000bell\\u0007"],
    ["line\u2028separator", "line\\u2028separator"],
    ["ünïcödé ✓", "ünïcödé ✓"],
    [42, "42"],
  ])("%j -> %j", (input, output) => {
    expect(logText(input)).toBe(output);
  });
});

describe("errorForLog", () => {
  it("keeps the message on one line and the stack frames after it", () => {
    const error = new TypeError('bad header "x\n[error] forged"');
    const text = errorForLog(error);
    const lines = text.split("\n");
    expect(lines[0]).toBe('TypeError: bad header "x\\n[error] forged"');
    expect(lines.slice(1).every((line) => /^\s+at /.test(line))).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
  });

  it("escapes what is not an Error", () => {
    expect(errorForLog("x\ny")).toBe("x\\ny");
  });
});
