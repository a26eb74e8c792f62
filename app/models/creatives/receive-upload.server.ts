import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "../../config.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { checkedFileType, maxBytesFor, SNIFF_BYTES, typeByName, type FileType } from "./file-types";

// An upload arrives as the raw request body (the browser sends the file
// itself, so it can show the progress of the bytes going out) and is written
// to a temporary file as it comes: a 50 MB brochure never sits in memory,
// and the stream is cut off the moment it passes the size limit.

export interface ReceivedUpload {
  tmpPath: string;
  size: number;
  type: FileType;
  name: string;
}

const tooLarge = (type: FileType) =>
  new AppError(
    "payload_too_large",
    msg("Creatives:errors.tooLarge", { mb: Math.round(maxBytesFor(type) / (1024 * 1024)) }),
  );
const wrongType = () => new AppError("bad_request", msg("Creatives:errors.type"));

export async function receiveUpload(
  body: ReadableStream<Uint8Array> | null,
  name: string,
  declaredLength: number | null,
): Promise<ReceivedUpload> {
  const claimed = typeByName(name);
  if (!claimed) throw wrongType();
  const max = maxBytesFor(claimed);
  // Refused before a byte is read when the client says how much it sends.
  if (declaredLength !== null && declaredLength > max) throw tooLarge(claimed);
  if (!body) throw new AppError("bad_request", msg("Creatives:errors.empty"));

  const dir = path.join(getConfig().DATA_DIR, "tmp");
  await mkdir(dir, { recursive: true });
  const tmpPath = path.join(dir, `upload-${randomBytes(8).toString("hex")}`);
  const out = createWriteStream(tmpPath, { flags: "wx" });
  const head = new Uint8Array(SNIFF_BYTES);
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size < SNIFF_BYTES) head.set(value.subarray(0, SNIFF_BYTES - size), size);
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(claimed);
      }
      if (!out.write(value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    if (size === 0) throw new AppError("bad_request", msg("Creatives:errors.empty"));
    const type = checkedFileType(name, head.subarray(0, Math.min(size, SNIFF_BYTES)));
    if (!type) throw wrongType();
    return { tmpPath, size, type, name };
  } catch (error) {
    out.destroy();
    await rm(tmpPath, { force: true });
    throw error;
  }
}
