// Browser-side flags with an expiry given in days (a dismissed banner stays
// dismissed for N days). A flag counts as expired when it is missing or its
// time has passed.

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface FlagStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function setExpiryFlag(store: FlagStore, key: string, days: number, now = Date.now()) {
  if (!Number.isFinite(days) || days < 0) throw new RangeError("days must be a non-negative number");
  store.setItem(key, String(now + days * DAY_MS));
}

export function isFlagExpired(store: FlagStore, key: string, now = Date.now()): boolean {
  const raw = store.getItem(key);
  if (raw === null) return true;
  const expiresAt = Number(raw);
  return !Number.isFinite(expiresAt) || expiresAt <= now;
}

export function clearExpiryFlag(store: FlagStore, key: string) {
  store.removeItem(key);
}

/** localStorage when it can be used (not on the server, not in a locked-down iframe). */
export function browserFlagStore(): FlagStore | null {
  try {
    if (typeof window === "undefined") return null;
    const probe = "__flag_probe__";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return null;
  }
}
