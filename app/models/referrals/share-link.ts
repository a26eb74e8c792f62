import { randomBytes } from "node:crypto";

// A refer-a-friend share link is the storefront's address with the advocate's
// token in `invite`: a parameter of its own, so it never collides with the
// affiliate program's referral parameter (Shop.referralParam, "ref").
export const INVITE_PARAM = "invite";

// Cart attributes the storefront script sets on a friend's cart; Shopify
// copies them to the order's note_attributes, where the order job reads them.
// The leading underscore hides them from the customer at checkout.
export const INVITE_TOKEN_ATTRIBUTE = "_referral_invite";
export const INVITE_DEVICE_ATTRIBUTE = "_referral_device";

/** 10 characters of [a-z0-9]: short enough to read aloud, about 51 bits. */
export function newShareToken(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** The advocate's share link on the shop's storefront (shopUrl: https://...). */
export function shareUrl(shopUrl: string, token: string): string {
  const url = new URL(shopUrl);
  url.searchParams.set(INVITE_PARAM, token);
  return url.toString();
}

export const isShareToken = (value: unknown): value is string =>
  typeof value === "string" && /^[a-z0-9]{6,32}$/.test(value);
