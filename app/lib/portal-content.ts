import { z } from "zod";
import { msg } from "../i18n/messages";

// Portal pages the merchant edits (landing, sign-up, login): content items
// with the fields spec section 3 names (elements, image_1, image_2, image,
// link, boxTextBenifit, icon), a top bar and a left bar. Pure: the editor,
// the pages and the tests share it. Spec section 5: asset links get a
// URL-shape check, and broken image paths are repaired by file name.

export const PORTAL_PAGE_KINDS = ["landing", "signup", "login"] as const;
export type PortalPageKind = (typeof PORTAL_PAGE_KINDS)[number];

/** Folders the app serves images from; repairs remap into these. */
export const UPLOAD_PREFIX = "/portal-assets/";
export const BUILT_IN_IMAGE_PREFIX = "/images/portal/";

const MAX_URL = 2048;

/**
 * The URL-shape check for asset and link URLs: an absolute http(s) URL with
 * a host and no credentials, or a path on the app ("/..." but not "//").
 * No javascript:, data: or other schemes, no whitespace or control characters.
 */
export function isAssetUrlShape(value: string): boolean {
  if (!value || value.length > MAX_URL) return false;
  if (/[\s\u0000-\u001f\u007f<>"'`\\]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "https:" || url.protocol === "http:") && !!url.hostname && !url.username && !url.password;
}

function fileNameOf(path: string): string {
  const clean = path.split(/[?#]/, 1)[0]!;
  return decodeURIComponentSafe(clean.slice(clean.lastIndexOf("/") + 1)).toLowerCase();
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Repairs an image path that points nowhere the app serves (an old folder,
 * a path copied from another page or shop) by finding a known image with
 * the same file name. Absolute http(s) URLs of the right shape are kept as
 * they are (they are not ours to check); anything else that cannot be
 * matched becomes null, and the page shows no image rather than a broken one.
 */
export function repairAssetPath(value: string | null | undefined, known: readonly string[]): string | null {
  if (!value) return null;
  const v = value.trim();
  if (!isAssetUrlShape(v)) {
    // Not even a URL (e.g. "images\\hero.png" or "hero.png"): try its file name.
    const name = fileNameOf(v.replace(/\\/g, "/"));
    return (name && known.find((k) => fileNameOf(k) === name)) || null;
  }
  if (!v.startsWith("/")) return v;
  if (known.includes(v)) return v;
  const name = fileNameOf(v);
  return (name && known.find((k) => fileNameOf(k) === name)) || null;
}

const text = (max: number) => z.string().trim().max(max).default("");
const urlField = z
  .string()
  .trim()
  .max(MAX_URL)
  .refine((v) => v === "" || isAssetUrlShape(v), "Enter a full https:// address or a path starting with /")
  .default("");

export const linkSchema = z.object({ label: text(80), url: urlField });

export const benefitBoxSchema = z.object({ icon: urlField, title: text(120), text: text(500) });

export const portalItemSchema = z.object({
  type: z.enum(["hero", "text", "image", "benefits", "button"]),
  elements: z.object({ heading: text(160), text: text(2000) }).default({}),
  image: urlField,
  image_1: urlField,
  image_2: urlField,
  icon: urlField,
  link: linkSchema.default({}),
  boxTextBenifit: z.array(benefitBoxSchema).max(6).default([]),
  // A section of the built-in landing page: its empty fields show the
  // built-in text in the visitor's language, so an untouched section stays
  // translated.
  builtIn: z.boolean().default(false),
  // Kept in the page but not shown (the merchant may bring it back).
  hidden: z.boolean().default(false),
});
export type PortalItem = z.infer<typeof portalItemSchema>;

export const fieldMode = z.enum(["off", "optional", "required"]);
export type FieldMode = z.infer<typeof fieldMode>;

export const SIGNUP_FIELD_TYPES = ["text", "select", "checkbox"] as const;
export const MAX_FIELD_OPTIONS = 20;

/** A field the merchant adds to the sign-up form; its answers are stored with the affiliate. */
export const signupFieldSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9_]{1,32}$/),
    label: text(200),
    // The label in other portal languages (language code → text); the
    // merchant's own text shows where none is given.
    labels: z.record(z.string().regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/), text(200)).default({}),
    type: z.enum(SIGNUP_FIELD_TYPES).default("text"),
    options: z.array(text(100)).max(MAX_FIELD_OPTIONS).default([]),
    required: z.boolean().default(false),
  })
  .superRefine((f, ctx) => {
    if (!f.label) ctx.addIssue({ code: "custom", path: ["label"], message: msg("Portals:errors.fieldLabel") });
    const options = f.options.filter(Boolean);
    if (f.type === "select" && options.length < 2)
      ctx.addIssue({ code: "custom", path: ["options"], message: msg("Portals:errors.fieldOptions") });
    if (new Set(options).size !== options.length)
      ctx.addIssue({ code: "custom", path: ["options"], message: msg("Portals:errors.fieldOptionsDiffer") });
  })
  .transform((f) => ({ ...f, options: f.type === "select" ? f.options.filter(Boolean) : [] }));
export type SignupField = z.infer<typeof signupFieldSchema>;

/** The sign-up form the merchant chooses (name, e-mail and password are always asked). */
export const signupFormSchema = z.object({
  paypalEmail: fieldMode.default("optional"),
  website: fieldMode.default("optional"),
  social: fieldMode.default("off"),
  questions: z.array(signupFieldSchema).max(10).default([]),
  termsUrl: urlField,
});
export type SignupFormConfig = z.infer<typeof signupFormSchema>;

export const portalPageSchema = z.object({
  title: text(120),
  topBar: z.object({ links: z.array(linkSchema).max(6).default([]) }).default({}),
  leftBar: z
    .object({ enabled: z.boolean().default(false), links: z.array(linkSchema).max(10).default([]) })
    .default({}),
  items: z.array(portalItemSchema).max(30).default([]),
  form: signupFormSchema.default({}),
});
export type PortalPageContent = z.infer<typeof portalPageSchema>;

export function emptyPage(): PortalPageContent {
  return portalPageSchema.parse({});
}

/**
 * The landing page affiliates see before the merchant changes anything: a
 * hero with the sign-up call to action and three benefit boxes, all
 * built-in (their texts follow the visitor's language until edited).
 */
export function builtInLandingItems(): PortalItem[] {
  return [
    portalItemSchema.parse({ type: "hero", builtIn: true }),
    portalItemSchema.parse({ type: "benefits", builtIn: true }),
  ];
}

/**
 * The landing page as it must be shown: the built-in sections when the
 * merchant has none, and always a visible hero first among heroes, which
 * carries the Join button (it cannot be hidden or removed: a landing page
 * without a way to sign up would lose every affiliate who finds it).
 */
export function withSignupCallToAction(page: PortalPageContent): PortalPageContent {
  if (!page.items.length) return { ...page, items: builtInLandingItems() };
  const heroAt = page.items.findIndex((i) => i.type === "hero");
  if (heroAt === -1) return { ...page, items: [builtInLandingItems()[0]!, ...page.items] };
  return { ...page, items: page.items.map((i, at) => (at === heroAt ? { ...i, hidden: false } : i)) };
}

/** Index of the section that carries the Join button (the first hero). */
export function callToActionIndex(items: readonly PortalItem[]): number {
  return items.findIndex((i) => i.type === "hero");
}

/** Parses stored JSON; anything unreadable is the empty page (the built-in texts show). */
export function readPageContent(raw: string | null | undefined): PortalPageContent {
  if (!raw) return emptyPage();
  try {
    const parsed = portalPageSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : emptyPage();
  } catch {
    return emptyPage();
  }
}

/** Every image field of a page run through repairAssetPath. */
export function repairPageAssets(page: PortalPageContent, known: readonly string[]): PortalPageContent {
  const fix = (v: string) => (v ? (repairAssetPath(v, known) ?? "") : "");
  return {
    ...page,
    items: page.items.map((item) => ({
      ...item,
      image: fix(item.image),
      image_1: fix(item.image_1),
      image_2: fix(item.image_2),
      icon: fix(item.icon),
      boxTextBenifit: item.boxTextBenifit.map((b) => ({ ...b, icon: fix(b.icon) })),
    })),
  };
}

const IMAGE_KEYS = ["image", "image_1", "image_2", "icon"] as const;

/**
 * Runs before validation on what the editor sent: image values without a
 * scheme (app paths, bare file names like "hero.png", Windows-style paths)
 * are repaired by file name, so a path copied from an old folder still
 * validates. A value with a scheme is left to the URL-shape check, and a
 * bare name that matches nothing is kept, so the check reports it.
 */
export function repairRawAssets(raw: unknown, known: readonly string[]): unknown {
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { items?: unknown }).items)) return raw;
  const fix = (v: unknown) => {
    if (typeof v !== "string" || v === "" || v.includes(":")) return v;
    const repaired = repairAssetPath(v, known);
    if (repaired !== null) return repaired;
    return v.startsWith("/") && !v.startsWith("//") ? "" : v;
  };
  const fixObject = (o: unknown, keys: readonly string[]) => {
    if (typeof o !== "object" || o === null) return o;
    const out: Record<string, unknown> = { ...(o as Record<string, unknown>) };
    for (const k of keys) if (k in out) out[k] = fix(out[k]);
    return out;
  };
  const items = (raw as { items: unknown[] }).items.map((item) => {
    const fixed = fixObject(item, IMAGE_KEYS) as Record<string, unknown> | unknown;
    if (
      typeof fixed === "object" &&
      fixed !== null &&
      Array.isArray((fixed as { boxTextBenifit?: unknown }).boxTextBenifit)
    ) {
      const f = fixed as { boxTextBenifit: unknown[] };
      return { ...f, boxTextBenifit: f.boxTextBenifit.map((b) => fixObject(b, ["icon"])) };
    }
    return fixed;
  });
  return { ...(raw as object), items };
}
