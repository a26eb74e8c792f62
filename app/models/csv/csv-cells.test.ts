import { describe, expect, it } from "vitest";
import { safeCell } from "./csv-cells";

describe("safeCell (CSV formula injection)", () => {
  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ["+1+1", "'+1+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", "'\r=1"],
    ["jane@example.com", "jane@example.com"],
    ["JANE-DOE", "JANE-DOE"],
    ["", ""],
    [null, ""],
    [undefined, ""],
    [42, "42"],
  ])("%j becomes %j", (input, output) => {
    expect(safeCell(input)).toBe(output);
  });
});
