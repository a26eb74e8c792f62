// Affiliate tags (ADR 057): a merchant's labels on an affiliate, set by the
// Shopify Flow action tag-affiliate and shown on the affiliate's page. Pure:
// the rules of one tag and of a comma-separated list, as Flow's text fields
// and Shopify's own "Add customer tags" action take them.

export const TAG_MAX_LENGTH = 40;
/** Tags per affiliate: a label set, not a store of data. */
export const TAGS_PER_AFFILIATE = 50;

/** One tag as stored: trimmed, inner spaces collapsed, lower-cased (so "VIP" and "vip" are one). */
export function normalizeTag(raw: string): string {
  return raw.trim().replace(/\s+/g, " ").toLowerCase();
}

export type TagListResult = { ok: true; tags: string[] } | { ok: false; problem: string };

/** A comma-separated list of tags, without empties and duplicates, in the order given. */
export function parseTagList(raw: string | undefined, what: string): TagListResult {
  const tags: string[] = [];
  for (const part of (raw ?? "").split(",")) {
    const tag = normalizeTag(part);
    if (!tag) continue;
    if (tag.length > TAG_MAX_LENGTH)
      return { ok: false, problem: `${what}: the tag "${tag}" is longer than ${TAG_MAX_LENGTH} characters` };
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > TAGS_PER_AFFILIATE)
    return { ok: false, problem: `${what}: at most ${TAGS_PER_AFFILIATE} tags at once` };
  return { ok: true, tags };
}
