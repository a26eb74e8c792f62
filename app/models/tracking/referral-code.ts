// Referral codes: what an affiliate's link carries (/r/{code}, ?ref={code}).
// Codes are stored upper-cased, so every comparison goes through normalize().
// Pure: used by the click fast path, the app proxy, the pixel endpoint and
// (as a hand-written copy) the storefront script.

export const REFERRAL_CODE_MIN = 3;
export const REFERRAL_CODE_MAX = 32;
const PATTERN = /^[A-Z0-9_-]+$/;

/** Trims and upper-cases; never fails. */
export function normalizeReferralCode(raw: string): string {
  return raw.trim().toUpperCase();
}

export type ReferralCodeCheck = { ok: true; code: string } | { ok: false; message: string };

/** Normalizes and validates: 3..32 characters of A-Z, 0-9, "_" and "-". */
export function checkReferralCode(raw: unknown): ReferralCodeCheck {
  if (typeof raw !== "string") return { ok: false, message: "Enter a referral code." };
  const code = normalizeReferralCode(raw);
  if (!code) return { ok: false, message: "Enter a referral code." };
  if (code.length < REFERRAL_CODE_MIN)
    return { ok: false, message: `A referral code has at least ${REFERRAL_CODE_MIN} characters.` };
  if (code.length > REFERRAL_CODE_MAX)
    return { ok: false, message: `A referral code has at most ${REFERRAL_CODE_MAX} characters.` };
  if (!PATTERN.test(code))
    return { ok: false, message: 'A referral code may only contain letters, digits, "_" and "-".' };
  return { ok: true, code };
}

/** The normalized code, or null when it is not a valid code. */
export function parseReferralCode(raw: unknown): string | null {
  const check = checkReferralCode(raw);
  return check.ok ? check.code : null;
}

/**
 * A code another app put in its links (UpPromote's ?sca_ref=, Refersion's
 * ?rfsn=, GoAffPro's ?ref=), in the form this app stores and compares it: a
 * referral alias (ADR 048). Upper case, with "." (their id.hash values) as
 * "-", so it fits a referral code's characters and the storefront cookie's
 * "{CODE}.{clickId}" form stays unambiguous. Null when it cannot be one.
 */
export function legacyReferralCode(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  return parseReferralCode(raw.trim().replace(/\./g, "-"));
}

/**
 * The query parameters of other apps' links that the storefront also reads
 * (after the shop's own parameter): their values are looked up as aliases.
 * UpPromote: sca_ref; Refersion: rfsn. GoAffPro uses ?ref=, the default here.
 */
export const LEGACY_LINK_PARAMS = ["sca_ref", "rfsn"] as const;
