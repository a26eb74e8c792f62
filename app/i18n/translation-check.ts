// Checks one language's translation of one namespace against English: every
// key present (plural keys in the language's own CLDR categories), no extra
// keys, the same {{placeholders}}, HTML-like tags and $t() nestings, no empty
// values. Pure: callers read the files (app/cli/check-translations.ts and the
// unit test).

export type Tree = { [key: string]: string | Tree };

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([\w.]+)[^}]*\}\}/g;
const TAG = /<\/?[A-Za-z0-9]+\s*\/?>/g;
const NESTING = /\$t\(([^)]*)\)/g;

export function flatten(tree: Tree, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out[full] = value;
    else if (value && typeof value === "object") flatten(value, full, out);
    else out[full] = value as unknown as string;
  }
  return out;
}

export function pluralCategories(tag: string): string[] {
  return [...new Intl.PluralRules(tag).resolvedOptions().pluralCategories];
}

const sorted = (values: Iterable<string>) => [...values].sort();
const listed = (names: Set<string>) => (names.size ? [...names].map((n) => `{{${n}}}`).join(", ") : "none");
const placeholders = (s: string) => new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]!));
const tags = (s: string) => sorted([...s.matchAll(TAG)].map((m) => m[0].replace(/\s+/g, "")));
const nestings = (s: string) => sorted([...s.matchAll(NESTING)].map((m) => m[1]!.trim()));

/** The keys a language must have for English's keys: plural groups expanded to its categories. */
export function expectedKeys(english: Record<string, string>, tag: string): Map<string, string> {
  const categories = pluralCategories(tag);
  const expected = new Map<string, string>(); // target key -> English key it translates
  for (const key of Object.keys(english)) {
    const base = key.replace(PLURAL_SUFFIX, "");
    if (base !== key && `${base}_other` in english) {
      for (const cat of categories) {
        const own = `${base}_${cat}`;
        // A category English lacks (few, many...) translates English's "other".
        expected.set(own, own in english ? own : `${base}_other`);
      }
    } else expected.set(key, key);
  }
  return expected;
}

export interface Problem {
  key: string;
  message: string;
}

/**
 * One translated string against its English source: the same placeholders
 * (a singular plural form may say "one" in words instead of {{count}}), the
 * same tags and the same $t() nestings.
 */
export function checkValue(key: string, en: string, value: string): Problem[] {
  const problems: Problem[] = [];
  const want = placeholders(en);
  const got = placeholders(value);
  const singular = /_(zero|one|two)$/.test(key);
  const missing = [...want].filter((p) => !got.has(p) && !(singular && p === "count"));
  const extra = [...got].filter((p) => !want.has(p));
  if (missing.length || extra.length) {
    problems.push({
      key,
      message: `placeholders differ: English has ${listed(want)}, translation has ${listed(got)}`,
    });
  }
  if (tags(en).join() !== tags(value).join()) {
    problems.push({
      key,
      message: `tags differ: English ${tags(en).join(" ")} / translation ${tags(value).join(" ")}`,
    });
  }
  if (nestings(en).join() !== nestings(value).join()) problems.push({ key, message: "$t() nestings differ" });
  return problems;
}

export function checkNamespace(englishTree: Tree, targetTree: Tree, tag: string): Problem[] {
  const english = flatten(englishTree);
  const target = flatten(targetTree);
  const expected = expectedKeys(english, tag);
  const problems: Problem[] = [];
  for (const [key, source] of expected) {
    const value = target[key];
    if (value === undefined) {
      problems.push({ key, message: "missing" });
      continue;
    }
    if (typeof value !== "string" || !value.trim()) {
      problems.push({ key, message: "empty or not a string" });
      continue;
    }
    problems.push(...checkValue(key, english[source]!, value));
  }
  for (const key of Object.keys(target)) if (!expected.has(key)) problems.push({ key, message: "not in English" });
  return problems;
}

/**
 * Multi-word strings left identical to English (a sign of an untranslated
 * copy). Brand names and single words may legitimately stay the same.
 */
export function untranslatedShare(englishTree: Tree, targetTree: Tree): { same: string[]; total: number } {
  const english = flatten(englishTree);
  const target = flatten(targetTree);
  const same: string[] = [];
  let total = 0;
  for (const [key, en] of Object.entries(english)) {
    const words = en.replace(PLACEHOLDER, "").replace(TAG, "").trim().split(/\s+/).filter(Boolean);
    if (words.length < 3) continue;
    total++;
    if (target[key] === en) same.push(key);
  }
  return { same, total };
}
