import { describe, expect, it } from "vitest";
import { errorForLog, jsonLogLine, logText } from "./log-text";

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

describe("jsonLogLine", () => {
  it.each([
    ["a\nb\r\n[error] forged"],
    ["line\u2028separator\u2029"],
    ["del\u007f c1\u0085 nul\u0000"],
    ['quote " backslash \\'],
    ["ünïcödé ✓"],
  ])("keeps %j on one line of JSON that reads back the same", (value) => {
    const line = jsonLogLine({ shop: value, status: 200 });
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(JSON.parse(line)).toEqual({ shop: value, status: 200 });
  });
});
