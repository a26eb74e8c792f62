import { randomBytes } from "node:crypto";
import { mkdir, open, rm } from "node:fs/promises";
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
  // Opened before the first byte: the file exists from here on, so the
  // cleanup below always finds what it must remove.
  const file = await open(tmpPath, "wx");
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
        // Not awaited: the server reads and drops the rest after the answer.
        void reader.cancel().catch(() => undefined);
        throw tooLarge(claimed);
      }
      await file.write(value);
    }
    await file.close();
    if (size === 0) throw new AppError("bad_request", msg("Creatives:errors.empty"));
    const type = checkedFileType(name, head.subarray(0, Math.min(size, SNIFF_BYTES)));
    if (!type) throw wrongType();
    return { tmpPath, size, type, name };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(tmpPath, { force: true });
    throw error;
  }
}
