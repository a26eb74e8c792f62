import { createHash, randomBytes } from "node:crypto";

// Single-use, expiring links (staff invites, password resets, the app
// proxy's hand-over to the account area). The link carries a random token;
// only its SHA-256 is stored, so a database leak reveals no usable link.
// Shared by the merchant (PasswordToken) and affiliate (AffiliateToken) tables.

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newToken(ttlMs: number, now = Date.now()): { token: string; tokenHash: string; expiresAt: Date } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: tokenDigest(token), expiresAt: new Date(now + ttlMs) };
}

/** A stored token that may still be spent. */
export function isTokenUsable(row: { usedAt: Date | null; expiresAt: Date } | null, now = Date.now()): boolean {
  return !!row && !row.usedAt && row.expiresAt.getTime() > now;
}

/** The shape a token must have before it is looked up at all. */
export function isTokenShaped(token: unknown): token is string {
  return typeof token === "string" && token.length >= 20 && token.length <= 200 && /^[A-Za-z0-9_-]+$/.test(token);
}
