// What a creative's file may be, decided by its bytes: the name's extension
// must agree with what the content is, as for the portal's images, so a
// renamed executable is refused as "not a PDF" whatever it is called.

export const CREATIVE_KINDS = ["image", "file", "video", "text"] as const;

export type FileType = "png" | "jpg" | "gif" | "webp" | "pdf" | "zip";

export const FILE_TYPES: Record<FileType, { mime: string; kind: "image" | "file"; extensions: string[] }> = {
  png: { mime: "image/png", kind: "image", extensions: ["png"] },
  jpg: { mime: "image/jpeg", kind: "image", extensions: ["jpg", "jpeg"] },
  gif: { mime: "image/gif", kind: "image", extensions: ["gif"] },
  webp: { mime: "image/webp", kind: "image", extensions: ["webp"] },
  pdf: { mime: "application/pdf", kind: "file", extensions: ["pdf"] },
  zip: { mime: "application/zip", kind: "file", extensions: ["zip"] },
};

// Images are shown and embedded on affiliates' pages: a banner larger than
// this is a mistake. Files (brand kits, brochures) may be larger.
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** How many leading bytes the sniffer needs. */
export const SNIFF_BYTES = 16;

/** The type the leading bytes show (magic numbers), or null for anything else. */
export function sniffFileType(b: Uint8Array): FileType | null {
  if (b.length < 4) return null;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return "webp";
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d) return "pdf";
  // A zip starts with a local file header, or is empty (end of central directory).
  if (b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 0x03 && b[3] === 0x04) || (b[2] === 0x05 && b[3] === 0x06)))
    return "zip";
  return null;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** The type a name claims (by extension), or null when no creative may have it. */
export function typeByName(name: string): FileType | null {
  const ext = extensionOf(name);
  for (const [type, info] of Object.entries(FILE_TYPES) as [FileType, (typeof FILE_TYPES)[FileType]][]) {
    if (info.extensions.includes(ext)) return type;
  }
  return null;
}

/**
 * The upload's type when name and content agree; null otherwise. A JPEG
 * named .jpeg and .jpg are the same type.
 */
export function checkedFileType(name: string, head: Uint8Array): FileType | null {
  const claimed = typeByName(name);
  const sniffed = sniffFileType(head);
  return claimed && sniffed === claimed ? sniffed : null;
}

export function maxBytesFor(type: FileType): number {
  return FILE_TYPES[type].kind === "image" ? MAX_IMAGE_BYTES : MAX_FILE_BYTES;
}

/** A title from an uploaded file's name: "summer-sale_banner.png" → "summer sale banner". */
export function titleFromFileName(name: string): string {
  const stem = name
    .replace(/^.*[\\/]/, "")
    .replace(/\.[^.]*$/, "")
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return stem.slice(0, 120) || "Creative";
}
