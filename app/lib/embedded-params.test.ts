import { describe, expect, it } from "vitest";
import { keptParams, withParam } from "./embedded-params";

describe("withParam", () => {
  it.each([
    ["?installing=1", "yearly", "?installing=1&interval=yearly"],
    ["?installing=1&interval=yearly", "monthly", "?installing=1&interval=monthly"],
    [
      "?host=aG9zdA&shop=a.myshopify.com&embedded=1&installing=1",
      "yearly",
      "?host=aG9zdA&shop=a.myshopify.com&embedded=1&installing=1&interval=yearly",
    ],
    ["?upgrade=mlm", "yearly", "?upgrade=mlm&interval=yearly"],
    ["", "yearly", "?interval=yearly"],
  ])("%s with interval=%s gives %s", (search, interval, expected) => {
    expect(withParam(search, "interval", interval)).toBe(expected);
  });
});

describe("keptParams", () => {
  it("keeps only the embedded parameters and adds the extra ones", () => {
    const url = new URL("https://app.example/admin?host=aG9zdA&installing=1&shop=a.myshopify.com");
    expect(keptParams(url, { installing: "1" })).toBe("host=aG9zdA&shop=a.myshopify.com&installing=1");
  });
});
