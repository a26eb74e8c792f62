import { storageFor, type AssetStorage } from "../storage/asset-storage.server";

// Creatives' files live in their own area of the uploads storage.
export const CREATIVE_FILES_PREFIX = "/creative-files/";

export function creativeStorage(): Promise<AssetStorage> {
  return storageFor("creatives", CREATIVE_FILES_PREFIX);
}

/** Thumbnail widths made on upload: the merchant's list, the gallery, a large preview. */
export const THUMBNAIL_WIDTHS = [160, 480, 1200] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

export function parseThumbnails(json: string): Partial<Record<ThumbnailWidth, string>> {
  try {
    const value = JSON.parse(json) as unknown;
    if (!value || typeof value !== "object") return {};
    const out: Partial<Record<ThumbnailWidth, string>> = {};
    for (const width of THUMBNAIL_WIDTHS) {
      const name = (value as Record<string, unknown>)[String(width)];
      if (typeof name === "string") out[width] = name;
    }
    return out;
  } catch {
    return {};
  }
}

/** The stored name of the thumbnail closest to (and at least) `width`, else the largest one, else the original. */
export function thumbnailFor(
  creative: { fileName: string | null; thumbnails: string },
  width: ThumbnailWidth,
): string | null {
  const thumbs = parseThumbnails(creative.thumbnails);
  const fit = THUMBNAIL_WIDTHS.filter((w) => w >= width).find((w) => thumbs[w]);
  return (fit ? thumbs[fit] : undefined) ?? creative.fileName;
}
