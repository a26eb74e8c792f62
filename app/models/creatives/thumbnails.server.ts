import sharp from "sharp";
import { imageSize, MAX_IMAGE_PIXELS, queueImageWork, unreadableImage } from "../images/image-work.server";
import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from "./creative-storage.server";

// Thumbnails of an uploaded image, made with sharp (libvips): WebP at each
// width, never larger than the original. The header is checked first (the
// pixel cap refuses a decoder bomb before it is decoded), then the image is
// decoded once, scaled to the largest width, and every thumbnail is made
// from that copy (clone() per width); in the image queue, one at a time.

export interface ImageFacts {
  width: number;
  height: number;
  thumbnails: { width: ThumbnailWidth; bytes: Uint8Array }[];
}

const LARGEST = Math.max(...THUMBNAIL_WIDTHS);

export function makeThumbnails(filePath: string): Promise<ImageFacts> {
  return queueImageWork(async () => {
    const { width, height } = await imageSize(filePath);
    try {
      // The one decode: oriented, and no wider than the largest thumbnail.
      const decoded = await sharp(filePath, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" })
        .rotate()
        .resize({ width: LARGEST, withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const base = sharp(decoded.data, {
        raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels },
      });
      const thumbnails = await Promise.all(
        THUMBNAIL_WIDTHS.map(async (w) => ({
          width: w,
          bytes: new Uint8Array(
            await base.clone().resize({ width: w, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(),
          ),
        })),
      );
      return { width, height, thumbnails };
    } catch {
      throw unreadableImage();
    }
  });
}
