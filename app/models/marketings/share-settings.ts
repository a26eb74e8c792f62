import { z } from "zod";
import { msg } from "../../i18n/messages";

// Settings › Marketings: what affiliates share. The merchant writes one text
// per network with {{link}} and {{code}} standing for the affiliate's link and
// code, and picks images (uploads or image creatives) to post with them. The
// portal's links page turns them into share buttons: plain share-intent URLs,
// nothing is loaded from those sites.

export const SHARE_NETWORKS = ["x", "facebook", "whatsapp", "email"] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];
export const MAX_SHARE_IMAGES = 6;

const text = (max: number) => z.string().trim().max(max, msg("Global:validation.textMax", { max }));

// An image of this shop: an upload (/portal-assets/...) or an image creative
// (/creative-files/...); the server checks it really is one of the shop's.
export const SHARE_IMAGE_PATH = /^\/(?:portal-assets|creative-files)\/[A-Za-z0-9_-]+\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const shareSettingsSchema = z
  .object({
    x: text(280),
    facebook: text(1000),
    whatsapp: text(1000),
    emailSubject: text(200),
    emailBody: text(2000),
    // Errors name the list, where the form shows them, not one entry of it.
    images: z
      .array(z.string().max(300))
      .max(MAX_SHARE_IMAGES, msg("Settings.Marketings:share.validation.images", { max: MAX_SHARE_IMAGES }))
      .refine((list) => list.every((path) => SHARE_IMAGE_PATH.test(path)), {
        message: msg("Settings.Marketings:share.validation.image"),
      }),
  })
  .strict();

export type ShareSettings = z.infer<typeof shareSettingsSchema>;

export const DEFAULT_SHARE: ShareSettings = {
  x: "",
  facebook: "",
  whatsapp: "",
  emailSubject: "",
  emailBody: "",
  images: [],
};

/** The stored settings, or the defaults where missing or unreadable. */
export function readShareSettings(value: unknown): ShareSettings {
  const parsed = shareSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_SHARE;
}

/** A text with its placeholders filled; an empty text is just the link. */
export function fillShareText(template: string, values: { link: string; code: string }): string {
  if (!template.trim()) return values.link;
  return template.replace(/\{\{\s*(link|code)\s*\}\}/g, (_, name: "link" | "code") => values[name]);
}

/** The share-intent URL of each network (opened in a new tab; mailto for e-mail). */
export function shareIntents(settings: ShareSettings, values: { link: string; code: string }) {
  const q = encodeURIComponent;
  const fill = (template: string) => fillShareText(template, values);
  return {
    x: `https://twitter.com/intent/tweet?text=${q(fill(settings.x))}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${q(values.link)}&quote=${q(fill(settings.facebook))}`,
    whatsapp: `https://wa.me/?text=${q(fill(settings.whatsapp))}`,
    email: `mailto:?subject=${q(settings.emailSubject ? fill(settings.emailSubject) : "")}&body=${q(fill(settings.emailBody))}`,
  } satisfies Record<ShareNetwork, string>;
}
