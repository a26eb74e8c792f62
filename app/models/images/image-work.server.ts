import pLimit from "p-limit";
import sharp from "sharp";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";

// Every uploaded image is decoded here, one at a time per process. A small
// PNG can claim a 6000 × 6000 canvas: decoded once for its size and again
// for each thumbnail width it cost 7.5 s of CPU, and eight at once made the
// login page take 12 s and left 280 MB behind. So:
// - the header is read first and an image over the pixel cap is refused
//   before a pixel is decoded (a 50000 × 50000 PNG of a few bytes);
// - images wait in one queue and are decoded one at a time, on one libvips
//   thread (a core stays for the requests), and libvips keeps no cache of
//   decoded images between uploads;
// - an upload is decoded once: thumbnails are scaled from one decoded copy.

/** What a creative or a portal image needs: 4096 × 4096 (a square 4K banner) and no more. */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

sharp.cache(false);
sharp.concurrency(1);

const oneAtATime = pLimit(1);

/** Runs `work` (which decodes images) after every image before it is done. */
export function queueImageWork<T>(work: () => Promise<T>): Promise<T> {
  return oneAtATime(work);
}

export const unreadableImage = () => new AppError("bad_request", msg("Creatives:errors.unreadable"));

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The image's size from its header (nothing decoded); refuses (400) an
 * image that is not one, or has more pixels than MAX_IMAGE_PIXELS.
 */
export async function imageSize(input: string | Uint8Array): Promise<ImageSize> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: the cap below is ours, with a message that says so.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    width = meta.width;
    // An animated image: one frame is what is shown and decoded.
    height = meta.pageHeight ?? meta.height;
  } catch {
    throw unreadableImage();
  }
  if (!width || !height) throw unreadableImage();
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new AppError(
      "bad_request",
      msg("Creatives:errors.tooManyPixels", { width, height, megapixels: Math.floor(MAX_IMAGE_PIXELS / 1_000_000) }),
    );
  }
  return { width, height };
}

/**
 * Checks an uploaded image before it is stored: its size from the header,
 * then every pixel decoded (a truncated or corrupt file is refused, 400).
 */
export function checkUploadedImage(bytes: Uint8Array): Promise<ImageSize> {
  return queueImageWork(async () => {
    const size = await imageSize(bytes);
    try {
      // stats() reads every pixel once, streaming, and keeps none of them.
      await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).stats();
    } catch {
      throw unreadableImage();
    }
    return size;
  });
}
