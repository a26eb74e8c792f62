import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box.server";

const KEY = randomBytes(32).toString("base64");
const OTHER = randomBytes(32).toString("hex");

describe("PayPal secret box", () => {
  it("round-trips, never contains the plain text and differs on every seal", () => {
    const a = sealSecret("EJ-secret-value", "shop_1", KEY);
    const b = sealSecret("EJ-secret-value", "shop_1", KEY);
    expect(a).not.toBe(b);
    expect(a).not.toContain("EJ-secret-value");
    expect(a.startsWith("v1:")).toBe(true);
    expect(openSecret(a, "shop_1", KEY)).toBe("EJ-secret-value");
  });

  it.each([
    ["another shop", (s: string) => openSecret(s, "shop_2", KEY)],
    ["another key", (s: string) => openSecret(s, "shop_1", OTHER)],
    [
      "a changed ciphertext",
      (s: string) => openSecret(s.slice(0, -2) + (s.endsWith("A") ? "BB" : "AA"), "shop_1", KEY),
    ],
    ["an unknown format", () => openSecret("v0:abc", "shop_1", KEY)],
  ])("refuses %s", (_label, open) => {
    const sealed = sealSecret("EJ-secret-value", "shop_1", KEY);
    expect(() => open(sealed)).toThrow();
  });

  it("refuses a missing or short key", () => {
    expect(() => sealSecret("x", "shop_1", "")).toThrow(/PAYPAL_SECRET_KEY/);
    expect(() => sealSecret("x", "shop_1", randomBytes(16).toString("base64") + "aaaaaaaa")).toThrow(/32 bytes/);
  });
});
