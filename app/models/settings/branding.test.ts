import { describe, expect, it } from "vitest";
import { brandingCss, brandingSchema, darker, DEFAULT_BRANDING, readBranding, textOn } from "./branding";

describe("branding", () => {
  it.each([
    ["{}", DEFAULT_BRANDING],
    ["oops", DEFAULT_BRANDING],
    [
      JSON.stringify({ branding: { primary_color: "#112233", font: "serif" } }),
      { ...DEFAULT_BRANDING, primary_color: "#112233", font: "serif" },
    ],
    [JSON.stringify({ branding: { primary_color: "red" } }), DEFAULT_BRANDING],
  ])("reads %s", (json, expected) => {
    expect(readBranding(json)).toEqual(expected);
  });

  it.each([
    ["#ffffff", 0.5, "#808080"],
    ["#204080", 0, "#204080"],
    ["#204080", 1, "#000000"],
  ])("darkens %s by %s", (hex, amount, expected) => {
    expect(darker(hex, amount)).toBe(expected);
  });

  it.each([
    ["#ffffff", "#000000"],
    ["#000000", "#ffffff"],
    ["#ffd400", "#000000"],
    ["#1f3a93", "#ffffff"],
  ])("text on %s is %s", (hex, expected) => {
    expect(textOn(hex)).toBe(expected);
  });

  it("writes no rules for the defaults and the overrides for a brand", () => {
    expect(brandingCss(DEFAULT_BRANDING)).toBe("");
    const css = brandingCss({
      ...DEFAULT_BRANDING,
      primary_color: "#C0392B",
      background_color: "#FDF6EC",
      font: "mono",
    });
    expect(css).toContain("--p-color-bg-fill-brand:#c0392b");
    expect(css).toContain("--p-color-text-brand-on-bg-fill:#ffffff");
    expect(css).toContain("body{background:#fdf6ec}");
    expect(css).toContain("monospace");
    expect(css).not.toMatch(/[<>]/);
  });

  it.each([
    [{ primary_color: "red" }, "primary_color"],
    [{ primary_color: "#12345g" }, "primary_color"],
    [{ logo: "https://evil.example/x.png" }, "logo"],
    [{ favicon: "/portal-assets/abc/../x.png" }, "favicon"],
    [{ font: "comic" }, "font"],
  ])("refuses %j", (change, field) => {
    const r = brandingSchema.safeParse({ ...DEFAULT_BRANDING, ...change });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual([field]);
  });
});
