import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Download } from "playwright-core";

/**
 * Where a browser download landed, as a local file. The e2e files share one
 * Chromium (tests/support/browser-server.ts) that they reach over a
 * connection, and Playwright keeps a remote browser's downloads on its side:
 * `download.path()` throws there, `saveAs` copies the file over.
 */
export async function savedDownload(download: Download): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "e2e-download-")), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}
