import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getConfig } from "../../config.server";
import { AppError } from "../../lib/errors";
import { BUILT_IN_IMAGE_PREFIX, UPLOAD_PREFIX } from "../../lib/portal-content";

// Images merchants upload for their portal pages, behind a small storage
// interface: on disk under DATA_DIR/uploads by default; an object store (S3
// and the like) implements the same four calls for several app instances.

export interface AssetStorage {
  put(shopId: string, fileName: string, bytes: Uint8Array): Promise<string>;
  get(shopId: string, fileName: string): Promise<Uint8Array | null>;
  list(shopId: string): Promise<string[]>;
}

export const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,100}$/;
const SAFE_SHOP = /^[A-Za-z0-9_-]{1,64}$/;

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

export function diskStorage(root: string): AssetStorage {
  const dirOf = (shopId: string) => {
    if (!SAFE_SHOP.test(shopId)) throw new AppError("bad_request", "Unknown shop.");
    return path.join(root, shopId);
  };
  return {
    async put(shopId, fileName, bytes) {
      if (!SAFE_NAME.test(fileName)) throw new AppError("bad_request", "That file name cannot be stored.");
      const dir = dirOf(shopId);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, fileName), bytes, { flag: "wx" });
      return `${UPLOAD_PREFIX}${shopId}/${fileName}`;
    },
    async get(shopId, fileName) {
      if (!SAFE_SHOP.test(shopId) || !SAFE_NAME.test(fileName)) return null;
      try {
        return await readFile(path.join(dirOf(shopId), fileName));
      } catch {
        return null;
      }
    },
    async list(shopId) {
      try {
        const names = await readdir(dirOf(shopId));
        return names.filter((n) => SAFE_NAME.test(n)).map((n) => `${UPLOAD_PREFIX}${shopId}/${n}`);
      } catch {
        return [];
      }
    },
  };
}

let storage: AssetStorage | undefined;

export function assetStorage(): AssetStorage {
  storage ??= diskStorage(path.join(getConfig().DATA_DIR, "uploads"));
  return storage;
}

export function useAssetStorageForTests(s: AssetStorage | undefined) {
  storage = s;
}

// Images that ship with the app (public/images/portal).
export const BUILT_IN_IMAGES = ["hero.svg", "benefit-commission.svg", "benefit-payout.svg", "benefit-tracking.svg"].map(
  (n) => BUILT_IN_IMAGE_PREFIX + n,
);

/** Every image path a page of this shop may point at: its uploads and the built-in images. */
export async function knownAssetPaths(shopId: string): Promise<string[]> {
  return [...(await assetStorage().list(shopId)), ...BUILT_IN_IMAGES];
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
  return assetStorage().put(shopId, storedFileName(original), bytes);
}
