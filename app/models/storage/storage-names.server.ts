import type { Readable } from "node:stream";
import { AppError } from "../../lib/errors";

// What every storage of uploads implements (disk, S3), and the names it
// accepts: a shop id and a file name the app made, never a path.

export interface OpenedFile {
  stream: Readable;
  size: number;
}

export interface AssetStorage {
  /** Stores new bytes; answers the public path the file is served at. */
  put(shopId: string, fileName: string, bytes: Uint8Array): Promise<string>;
  /** Stores a file from local disk (large uploads, streamed rather than read whole). */
  putFile(shopId: string, fileName: string, localPath: string): Promise<void>;
  get(shopId: string, fileName: string): Promise<Uint8Array | null>;
  /** A stream of the file, for sending large files without holding them. */
  open(shopId: string, fileName: string): Promise<OpenedFile | null>;
  remove(shopId: string, fileName: string): Promise<void>;
  list(shopId: string): Promise<string[]>;
}

export const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,100}$/;
export const SAFE_SHOP = /^[A-Za-z0-9_-]{1,64}$/;

/** Refuses a shop id or file name the storage could not have written (no paths, no dots first). */
export function checkStorageName(shopId: string, fileName: string) {
  if (!SAFE_SHOP.test(shopId)) throw new AppError("bad_request", "Unknown shop.");
  if (!SAFE_NAME.test(fileName)) throw new AppError("bad_request", "That file name cannot be stored.");
}
