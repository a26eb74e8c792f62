import { describe, expect, it } from "vitest";
import { hasExtension } from "./public-files";

describe("hasExtension", () => {
  it.each([
    ["/favicon.ico", true],
    ["/favicon.svg", true],
    ["/images/portal/hero.webp", true],
    ["/api.v1.openapi.json", true],
    ["/admin/sales", false],
    ["/admin/dashboard/", false],
    ["/portal/demo-store/", false],
    ["/", false],
    ["/v1.2/page", false],
  ])("%s → %s", (path, expected) => {
    expect(hasExtension(path)).toBe(expected);
  });
});
