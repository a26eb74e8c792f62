import { describe, expect, it } from "vitest";
import {
  callToActionIndex,
  emptyPage,
  isAssetUrlShape,
  portalItemSchema,
  portalPageSchema,
  repairAssetPath,
  repairRawAssets,
  withSignupCallToAction,
} from "./portal-content";

describe("isAssetUrlShape (spec section 5: URL-shape check for asset links)", () => {
  it.each([
    ["https://cdn.example.com/a/hero.png", true],
    ["http://example.com/x.jpg?v=2#top", true],
    ["/portal-assets/shop1/abc-hero.png", true],
    ["/images/portal/hero.svg", true],
    ["", false],
    ["hero.png", false],
    ["//evil.example/x.png", false],
    ["javascript:alert(1)", false],
    ["data:image/png;base64,AAAA", false],
    ["ftp://example.com/x.png", false],
    ["https://user:pw@example.com/x.png", false],
    ["https://example.com/a b.png", false],
    ["/a\\b.png", false],
    ['/x.png" onerror="alert(1)', false],
    ["https://", false],
    [`https://example.com/${"a".repeat(2100)}`, false],
  ])("%s -> %s", (value, ok) => {
    expect(isAssetUrlShape(value)).toBe(ok);
  });
});

describe("repairAssetPath (broken paths remapped to known folders by file name)", () => {
  const known = ["/portal-assets/s1/1a2b3c4d-hero.png", "/images/portal/benefit-payout.svg"];
  it.each([
    ["/portal-assets/s1/1a2b3c4d-hero.png", "/portal-assets/s1/1a2b3c4d-hero.png"],
    ["/old/uploads/1a2b3c4d-hero.png", "/portal-assets/s1/1a2b3c4d-hero.png"],
    ["/portal-assets/OTHER/1A2B3C4D-HERO.PNG?v=3", "/portal-assets/s1/1a2b3c4d-hero.png"],
    ["1a2b3c4d-hero.png", "/portal-assets/s1/1a2b3c4d-hero.png"],
    ["images\\portal\\benefit-payout.svg", "/images/portal/benefit-payout.svg"],
    ["/assets/benefit-payout.svg", "/images/portal/benefit-payout.svg"],
    ["https://cdn.example.com/whatever.png", "https://cdn.example.com/whatever.png"],
    ["/old/missing.png", null],
    ["missing.png", null],
    ["javascript:alert(1)", null],
    ["", null],
    [null, null],
  ])("%s -> %s", (value, repaired) => {
    expect(repairAssetPath(value, known)).toBe(repaired);
  });
});

describe("repairRawAssets (before validation)", () => {
  const known = ["/portal-assets/s1/1a2b3c4d-hero.png"];
  it("repairs scheme-less image values, drops broken app paths, leaves schemes to the shape check", () => {
    const raw = {
      items: [
        {
          type: "hero",
          image: "1a2b3c4d-hero.png",
          icon: "/gone/x.png",
          image_1: "javascript:alert(1)",
          boxTextBenifit: [{ icon: "/old/1a2b3c4d-hero.png", title: "t" }],
        },
        { type: "text", image: "nothing-like-it.png" },
      ],
    };
    const out = repairRawAssets(raw, known) as { items: Record<string, unknown>[] };
    expect(out.items[0]).toMatchObject({
      image: "/portal-assets/s1/1a2b3c4d-hero.png",
      icon: "",
      image_1: "javascript:alert(1)",
      boxTextBenifit: [{ icon: "/portal-assets/s1/1a2b3c4d-hero.png", title: "t" }],
    });
    expect(out.items[1]!.image).toBe("nothing-like-it.png");
    const checked = portalPageSchema.safeParse(out);
    expect(checked.success).toBe(false);
    if (!checked.success)
      expect(checked.error.issues.map((i) => i.path.join("."))).toEqual(["items.0.image_1", "items.1.image"]);
  });

  it("leaves anything that is not a page alone", () => {
    expect(repairRawAssets("x", known)).toBe("x");
    expect(repairRawAssets({ items: "no" }, known)).toEqual({ items: "no" });
  });
});

describe("withSignupCallToAction (the landing page always offers Join)", () => {
  const text = portalItemSchema.parse({ type: "text", elements: { heading: "Hi" } });
  const hero = portalItemSchema.parse({ type: "hero", elements: { heading: "Ride" }, hidden: true });
  it.each([
    ["no sections: the built-in page", [], ["hero:builtIn", "benefits:builtIn"]],
    ["one heading only (the old editor's trap): built-in hero first", [text], ["hero:builtIn", "text"]],
    ["a hidden hero is shown again", [text, hero], ["text", "hero"]],
  ])("%s", (_name, items, expected) => {
    const shown = withSignupCallToAction({ ...emptyPage(), items });
    expect(shown.items.map((i) => (i.builtIn ? `${i.type}:builtIn` : i.type))).toEqual(expected);
    expect(shown.items[callToActionIndex(shown.items)]!.hidden).toBe(false);
  });
});
