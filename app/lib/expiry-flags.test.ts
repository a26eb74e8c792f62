import { describe, expect, it } from "vitest";
import { DAY_MS, clearExpiryFlag, isFlagExpired, setExpiryFlag, type FlagStore } from "./expiry-flags";

function memoryStore(): FlagStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe("expiry flags", () => {
  const now = Date.UTC(2026, 0, 1);

  it("is expired when missing", () => {
    expect(isFlagExpired(memoryStore(), "banner", now)).toBe(true);
  });

  it.each([
    // [days, checked after ms, expired?]
    [1, 0, false],
    [1, DAY_MS - 1, false],
    [1, DAY_MS, true],
    [7, 6 * DAY_MS, false],
    [7, 7 * DAY_MS + 1, true],
    [0, 0, true],
  ])("set for %i day(s), checked %i ms later: expired=%s", (days, later, expired) => {
    const store = memoryStore();
    setExpiryFlag(store, "banner", days, now);
    expect(store.data.get("banner")).toBe(String(now + days * 24 * 3600 * 1000));
    expect(isFlagExpired(store, "banner", now + later)).toBe(expired);
  });

  it("treats garbage as expired and can be cleared", () => {
    const store = memoryStore();
    store.setItem("banner", "soon");
    expect(isFlagExpired(store, "banner", now)).toBe(true);
    setExpiryFlag(store, "banner", 3, now);
    clearExpiryFlag(store, "banner");
    expect(isFlagExpired(store, "banner", now)).toBe(true);
  });

  it("refuses negative days", () => {
    expect(() => setExpiryFlag(memoryStore(), "x", -1, now)).toThrow(RangeError);
  });
});
