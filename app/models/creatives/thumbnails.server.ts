import sharp from "sharp";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from "./creative-storage.server";

// Thumbnails of an uploaded image, made with sharp (libvips): WebP at each
// width, never larger than the original. A decoder bomb (a small file that
// claims a huge canvas) is refused by the pixel limit before it is decoded.
const MAX_INPUT_PIXELS = 40_000_000;

export interface ImageFacts {
  width: number;
  height: number;
  thumbnails: { width: ThumbnailWidth; bytes: Uint8Array }[];
}

export async function makeThumbnails(filePath: string): Promise<ImageFacts> {
  const notReadable = () => new AppError("bad_request", msg("Creatives:errors.unreadable"));
  let width: number;
  let height: number;
  try {
    const meta = await sharp(filePath, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw notReadable();
    width = meta.width;
    height = meta.pageHeight ?? meta.height;
    if (width * height > MAX_INPUT_PIXELS) throw notReadable();
  } catch {
    throw notReadable();
  }
  const thumbnails: ImageFacts["thumbnails"] = [];
  try {
    for (const w of THUMBNAIL_WIDTHS) {
      const bytes = await sharp(filePath, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: w, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      thumbnails.push({ width: w, bytes: new Uint8Array(bytes) });
    }
  } catch {
    throw notReadable();
  }
  return { width, height, thumbnails };
}
