import { createHmac, timingSafeEqual } from "node:crypto";

// The signed address of a recipient's preference page (and of the RFC 8058
// one-click unsubscribe): shop + address, signed with the app's secret, so
// nobody can change someone else's choices by guessing an address. The token
// does not expire: an unsubscribe link must keep working in old e-mails.

function sign(secret: string, shopId: string, address: string): string {
  return createHmac("sha256", secret)
    .update(`mail-preferences\n${shopId}\n${address.toLowerCase()}`)
    .digest("base64url");
}

export function isPreferencesToken(secret: string, shopId: string, address: string, token: string): boolean {
  const expected = Buffer.from(sign(secret, shopId, address));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function preferencesUrl(appUrl: string, secret: string, shopId: string, address: string, kind?: string) {
  const params = new URLSearchParams({ s: shopId, a: address.toLowerCase(), t: sign(secret, shopId, address) });
  if (kind) params.set("k", kind);
  return `${appUrl}/mail/preferences?${params.toString()}`;
}

/** The link's parameters, as the preference page and the one-click POST receive them. */
export interface PreferenceLink {
  s: string;
  a: string;
  t: string;
  k?: string | null;
}
