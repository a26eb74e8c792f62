// The tags a referral link may carry besides the code, read from its query:
//   sub_id                  the affiliate's own label, reported per value
//   sub1 … sub5             five more labels, kept with the click and the sale
//   utm_source … utm_content the usual campaign parameters
//   via=qr                  the link was opened from its QR code
// Pure, so the /r/ fast path and the app proxy read them the same way.
// Values are never refused: a bad one is dropped or cut, a click never fails
// because of its tags (ADR 045).

export const SUB_ID_PARAM = "sub_id";
export const SUB_PARAMS = ["sub1", "sub2", "sub3", "sub4", "sub5"] as const;
export const UTM_PARAMS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
export const TAG_PARAMS = [...SUB_PARAMS, ...UTM_PARAMS] as const;
export type TagName = (typeof TAG_PARAMS)[number];
export const VIA_PARAM = "via";

export const MAX_SUB_ID = 64;
export const MAX_UTM = 128;

export interface LinkTags {
  subId: string | null;
  /** JSON object of the given sub1..sub5 and utm_* values, or null when none. */
  linkTags: string | null;
  /** The link was opened from its QR code. */
  qr: boolean;
}

export const NO_TAGS: LinkTags = Object.freeze({ subId: null, linkTags: null, qr: false });

// Control characters, and the invisible format characters that make two
// labels look alike (zero-width, bidi controls).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** A tag value made safe to store: printable, trimmed, cut to max; null when nothing is left. */
export function cleanTag(raw: string | null | undefined, max: number): string | null {
  if (typeof raw !== "string" || raw === "") return null;
  const clean = raw.replace(UNPRINTABLE, "").trim();
  if (!clean) return null;
  // Cut on code points, never inside a surrogate pair.
  const points = Array.from(clean);
  return points.length > max ? points.slice(0, max).join("").trim() || null : clean;
}

/** The tags of a link's query (a repeated parameter: its first value). */
export function readLinkTags(params: URLSearchParams): LinkTags {
  const subId = cleanTag(params.get(SUB_ID_PARAM), MAX_SUB_ID);
  let tags: Partial<Record<TagName, string>> | null = null;
  for (const name of TAG_PARAMS) {
    const value = cleanTag(params.get(name), name.startsWith("utm_") ? MAX_UTM : MAX_SUB_ID);
    if (value !== null) (tags ??= {})[name] = value;
  }
  const qr = params.get(VIA_PARAM) === "qr";
  if (subId === null && tags === null && !qr) return NO_TAGS;
  return { subId, linkTags: tags ? JSON.stringify(tags) : null, qr };
}

/** The tags of a URL's query string (with or without its "?"); a bad URL has none. */
export function readLinkTagsOf(url: string | null | undefined): LinkTags {
  if (!url) return NO_TAGS;
  const hash = url.indexOf("#");
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const q = beforeHash.indexOf("?");
  return q === -1 ? NO_TAGS : readLinkTags(new URLSearchParams(beforeHash.slice(q + 1)));
}

/** A stored linkTags value read back; anything unreadable is no tags. */
export function parseStoredTags(raw: string | null | undefined): Partial<Record<TagName, string>> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const out: Partial<Record<TagName, string>> = {};
    for (const name of TAG_PARAMS) {
      const v = (value as Record<string, unknown>)[name];
      if (typeof v === "string") out[name] = v;
    }
    return out;
  } catch {
    return {};
  }
}
