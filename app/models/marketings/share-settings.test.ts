import { describe, expect, it } from "vitest";
import { DEFAULT_SHARE, fillShareText, readShareSettings, shareIntents, shareSettingsSchema } from "./share-settings";

const values = { link: "https://app.example/r/ANNA", code: "ANNA" };

describe("fillShareText", () => {
  it.each([
    ["", "https://app.example/r/ANNA"],
    ["   ", "https://app.example/r/ANNA"],
    ["Shop with {{link}}", "Shop with https://app.example/r/ANNA"],
    ["Code {{ code }} at {{link}} ({{code}})", "Code ANNA at https://app.example/r/ANNA (ANNA)"],
    ["No placeholder", "No placeholder"],
    ["{{other}} stays", "{{other}} stays"],
  ])("%j gives %j", (template, expected) => {
    expect(fillShareText(template, values)).toBe(expected);
  });
});

describe("shareIntents", () => {
  it("builds plain share URLs with the filled texts, encoded", () => {
    const urls = shareIntents(
      { ...DEFAULT_SHARE, x: "Use {{code}} & save: {{link}}", emailSubject: "A gift", emailBody: "Here: {{link}}" },
      values,
    );
    expect(new URL(urls.x).searchParams.get("text")).toBe("Use ANNA & save: https://app.example/r/ANNA");
    expect(new URL(urls.x).origin).toBe("https://twitter.com");
    expect(new URL(urls.facebook).searchParams.get("u")).toBe(values.link);
    expect(new URL(urls.whatsapp).searchParams.get("text")).toBe(values.link);
    expect(urls.email).toBe(`mailto:?subject=A%20gift&body=${encodeURIComponent("Here: https://app.example/r/ANNA")}`);
  });
});

describe("shareSettingsSchema", () => {
  it.each([
    [{ ...DEFAULT_SHARE, images: ["/portal-assets/shop1/abc.png", "/creative-files/shop1/x_1.jpg"] }, true],
    [{ ...DEFAULT_SHARE, images: ["https://evil.example/a.png"] }, false],
    [{ ...DEFAULT_SHARE, images: ["/portal-assets/../secret"] }, false],
    [{ ...DEFAULT_SHARE, images: Array(7).fill("/portal-assets/s/a.png") }, false],
    [{ ...DEFAULT_SHARE, x: "x".repeat(281) }, false],
    [{ ...DEFAULT_SHARE, extra: 1 }, false],
  ])("%#: valid=%s", (input, ok) => {
    expect(shareSettingsSchema.safeParse(input).success).toBe(ok);
  });

  it("reads damaged stored settings as the defaults", () => {
    expect(readShareSettings(undefined)).toEqual(DEFAULT_SHARE);
    expect(readShareSettings({ x: 3 })).toEqual(DEFAULT_SHARE);
  });
});
