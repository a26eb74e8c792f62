import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getConfig } from "../../config.server";
import { AppError } from "../../lib/errors";
import { checkUploadedImage } from "../images/image-work.server";
import { BUILT_IN_IMAGE_PREFIX, UPLOAD_PREFIX } from "../../lib/portal-content";
import { checkStorageName, SAFE_NAME, SAFE_SHOP, type AssetStorage } from "./storage-names.server";

export { checkStorageName, SAFE_NAME, SAFE_SHOP, type AssetStorage, type OpenedFile } from "./storage-names.server";

// Files merchants upload (portal page images, creatives), behind a small
// storage interface: on disk under DATA_DIR by default; an S3-compatible
// object store (STORAGE=s3, see s3-storage.server.ts) implements the same
// calls for several app instances. Each area ("uploads", "creatives") is its
// own folder, so listing one shop's portal images never shows its creatives.

export const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** A stored file name: the uploaded name made safe, with a random prefix so names never collide. */
export function storedFileName(original: string): string {
  const ext = (original.split(".").pop() ?? "").toLowerCase();
  const stem = original
    .replace(/\.[^.]*$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${randomBytes(4).toString("hex")}-${stem || "image"}.${ext}`;
}

/** Checks the bytes really are an image of the type the name says (magic numbers). */
export function sniffImageType(bytes: Uint8Array): string | null {
  const b = bytes;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return "gif";
  if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45) return "webp";
  return null;
}

export function diskStorage(root: string, urlPrefix = UPLOAD_PREFIX): AssetStorage {
  const dirOf = (shopId: string) => {
    if (!SAFE_SHOP.test(shopId)) throw new AppError("bad_request", "Unknown shop.");
    return path.join(root, shopId);
  };
  const fileOf = (shopId: string, fileName: string) =>
    SAFE_SHOP.test(shopId) && SAFE_NAME.test(fileName) ? path.join(root, shopId, fileName) : null;
  return {
    async put(shopId, fileName, bytes) {
      checkStorageName(shopId, fileName);
      const dir = dirOf(shopId);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, fileName), bytes, { flag: "wx" });
      return `${urlPrefix}${shopId}/${fileName}`;
    },
    async putFile(shopId, fileName, localPath) {
      checkStorageName(shopId, fileName);
      const dir = dirOf(shopId);
      await mkdir(dir, { recursive: true });
      // COPYFILE_EXCL: never overwrite, like put's "wx".
      await copyFile(localPath, path.join(dir, fileName), 1);
    },
    async get(shopId, fileName) {
      const file = fileOf(shopId, fileName);
      if (!file) return null;
      try {
        return await readFile(file);
      } catch {
        return null;
      }
    },
    async open(shopId, fileName) {
      const file = fileOf(shopId, fileName);
      if (!file) return null;
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { stream: createReadStream(file), size: info.size };
      } catch {
        return null;
      }
    },
    async remove(shopId, fileName) {
      const file = fileOf(shopId, fileName);
      if (file) await rm(file, { force: true });
    },
    async list(shopId) {
      try {
        const names = await readdir(dirOf(shopId));
        return names.filter((n) => SAFE_NAME.test(n)).map((n) => `${urlPrefix}${shopId}/${n}`);
      } catch {
        return [];
      }
    },
  };
}

const areas = new Map<string, AssetStorage>();

/**
 * The storage of one area, as the configuration chooses: a folder under
 * DATA_DIR, or a folder of the S3 bucket. `urlPrefix` is where the app
 * serves the area's public files.
 */
export async function storageFor(area: string, urlPrefix: string): Promise<AssetStorage> {
  const known = areas.get(area);
  if (known) return known;
  const config = getConfig();
  let made: AssetStorage;
  if (config.STORAGE === "s3") {
    // Loaded only when chosen: the SDK is large and most installations use the disk.
    const { s3StorageFromConfig } = await import("./s3-storage.server");
    made = s3StorageFromConfig(config, area, urlPrefix);
  } else {
    made = diskStorage(path.join(config.DATA_DIR, area), urlPrefix);
  }
  areas.set(area, made);
  return made;
}

/** The portal pages' images. */
export function assetStorage(): Promise<AssetStorage> {
  return storageFor("uploads", UPLOAD_PREFIX);
}

// Images that ship with the app (public/images/portal).
export const BUILT_IN_IMAGES = ["hero.svg", "benefit-commission.svg", "benefit-payout.svg", "benefit-tracking.svg"].map(
  (n) => BUILT_IN_IMAGE_PREFIX + n,
);

/** Every image path a page of this shop may point at: its uploads and the built-in images. */
export async function knownAssetPaths(shopId: string): Promise<string[]> {
  return [...(await (await assetStorage()).list(shopId)), ...BUILT_IN_IMAGES];
}

/** Stores an uploaded image after checking its size, extension and content. */
export async function storeUploadedImage(shopId: string, original: string, bytes: Uint8Array): Promise<string> {
  if (bytes.length === 0) throw new AppError("bad_request", "Choose an image to upload.");
  if (bytes.length > MAX_IMAGE_BYTES) throw new AppError("payload_too_large", "Images can be at most 2 MB.");
  const ext = (original.split(".").pop() ?? "").toLowerCase();
  const sniffed = sniffImageType(bytes);
  if (!IMAGE_TYPES[ext] || !sniffed || IMAGE_TYPES[sniffed] !== IMAGE_TYPES[ext]) {
    throw new AppError("bad_request", "Upload a PNG, JPEG, GIF or WebP image.");
  }
  // Decoded and checked before it is stored: a file that claims a huge
  // canvas, or cannot be read, is refused here, not served to browsers.
  await checkUploadedImage(bytes);
  return (await assetStorage()).put(shopId, storedFileName(original), bytes);
}
