import { describe, expect, it } from "vitest";
import { roleLoginPath, shopLoadOutcome } from "./shop-loading";

describe("shopLoadOutcome", () => {
  it.each([
    [200, "ok"],
    [401, "login"],
    [409, "ignore"],
    [403, "surface"],
    [404, "surface"],
    [500, "surface"],
    [502, "surface"],
  ] as const)("%i -> %s", (status, outcome) => {
    expect(shopLoadOutcome(status)).toBe(outcome);
  });

  it("sends each role to its own login", () => {
    expect(roleLoginPath("admin")).toBe("/login");
    expect(roleLoginPath("staff")).toBe("/staff/login");
  });
});
