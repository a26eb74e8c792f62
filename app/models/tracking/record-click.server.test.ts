import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildClickRow, cleanText, hashIp, newClickIds } from "./record-click.server";

describe("click ids", () => {
  it("are URL-safe, unique and ordered by time", () => {
    const ids = Array.from({ length: 5000 }, () => newClickIds());
    for (const { id, clickId } of ids.slice(0, 50)) {
      expect(clickId).toMatch(/^[0-9a-z]{11}[A-Za-z0-9_-]{16}$/);
      expect(id).toMatch(/^c[0-9a-z]{11}[A-Za-z0-9_-]{16}$/);
    }
    expect(new Set(ids.map((i) => i.clickId)).size).toBe(ids.length);
    expect(new Set(ids.map((i) => i.id)).size).toBe(ids.length);
    // The time prefix never goes backwards (index appends, not random inserts).
    const prefixes = ids.map((i) => i.clickId.slice(0, 9));
    expect([...prefixes].sort()).toEqual(prefixes);
  });
});

describe("hashIp", () => {
  const secret = "test-session-secret-0123456789";
  it("is the HMAC-SHA256 of the address, hex, 32 characters", () => {
    const expected = createHmac("sha256", secret).update("203.0.113.9").digest("hex").slice(0, 32);
    expect(hashIp(secret, "203.0.113.9")).toBe(expected);
    expect(hashIp(secret, "203.0.113.9")).toBe(expected); // cached answer is the same
    expect(hashIp(secret, "::ffff:203.0.113.9")).toBe(expected);
    expect(hashIp(`${secret}-other`, "203.0.113.9")).not.toBe(expected);
    expect(hashIp(secret, "2001:db8::1")).toMatch(/^[0-9a-f]{32}$/);
    expect(hashIp(secret, null)).toBeNull();
    expect(hashIp(secret, "")).toBeNull();
  });
});

describe("buildClickRow", () => {
  it("never keeps the address, cuts long text and strips control characters", () => {
    const row = buildClickRow(
      {
        shopId: "s",
        affiliateId: "a",
        source: "link",
        landingUrl: "https://shop.example/p",
        referrer: "https://r.example/\u0000x",
        ip: "198.51.100.7",
        userAgent: "U".repeat(600),
      },
      "secret-secret-secret",
    );
    expect(JSON.stringify(row)).not.toContain("198.51.100.7");
    expect(row.ipHash).toHaveLength(32);
    expect(row.userAgent).toHaveLength(512);
    expect(row.referrer).toBe("https://r.example/x");
    expect(cleanText("\u0001\u0002", 10)).toBeNull();
    expect(cleanText(null, 10)).toBeNull();
  });
});
