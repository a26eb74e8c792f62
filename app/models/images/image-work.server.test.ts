import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makeThumbnails } from "../creatives/thumbnails.server";
import { pngHeaderOnly, solidPng } from "../../../tests/support/png";
import { checkUploadedImage, imageSize, MAX_IMAGE_PIXELS, queueImageWork } from "./image-work.server";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

// Uploaded images: the pixel cap read from the header, a full decode before
// anything is stored, thumbnails from one decode, one image at a time.

const refusal = async (work: Promise<unknown>) => {
  const error = (await work.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; message?: string } | null;
  return error ? { status: error.status, message: error.message } : null;
};

describe("image checks", () => {
  it.each([
    [50_000, 50_000],
    [4097, 4096],
    [100_000, 200],
  ])("refuse a %i × %i PNG from its header, before decoding it", async (width, height) => {
    const started = performance.now();
    const answer = await refusal(checkUploadedImage(pngHeaderOnly(width, height)));
    expect(answer?.status).toBe(400);
    expect(answer?.message).toMatch(/^Creatives:errors.tooManyPixels/);
    // A decode of 2.5 billion pixels would take minutes; the header takes nothing.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("accepts an image at the cap's edge and reads its size", async () => {
    expect(await imageSize(pngHeaderOnly(4096, 4096))).toEqual({ width: 4096, height: 4096 });
    expect(4096 * 4096).toBe(MAX_IMAGE_PIXELS);
    expect(await checkUploadedImage(solidPng(64, 32, [10, 20, 30]))).toEqual({ width: 64, height: 32 });
  });

  it("refuses a file that is not a whole image: truncated, or not one at all", async () => {
    const png = solidPng(200, 200, [200, 10, 10]);
    // Valid header, pixels cut off: only a full decode finds it.
    expect((await refusal(checkUploadedImage(pngHeaderOnly(200, 200))))?.message).toBe("Creatives:errors.unreadable");
    expect((await refusal(checkUploadedImage(png.subarray(0, 60))))?.status).toBe(400);
    expect((await refusal(checkUploadedImage(new TextEncoder().encode("<svg/>"))))?.status).toBe(400);
  });

  it("runs image work one at a time", async () => {
    const log: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        queueImageWork(async () => {
          log.push(`start ${n}`);
          await new Promise((r) => setTimeout(r, 10));
          log.push(`end ${n}`);
        }),
      ),
    );
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });
});

describe("thumbnails", () => {
  it("makes each width from one decode, never larger than the original, oriented", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "thumbs-"));
    const file = path.join(dir, "wide.png");
    await writeFile(
      file,
      await sharp(solidPng(2000, 1000, [0, 90, 200]))
        .png()
        .toBuffer(),
    );
    const facts = await makeThumbnails(file);
    expect(facts).toMatchObject({ width: 2000, height: 1000 });
    const sizes = await Promise.all(facts.thumbnails.map(async (t) => sharp(t.bytes).metadata()));
    expect(sizes.map((m) => [m.format, m.width, m.height])).toEqual([
      ["webp", 160, 80],
      ["webp", 480, 240],
      ["webp", 1200, 600],
    ]);
    const small = path.join(dir, "small.png");
    await writeFile(small, solidPng(300, 100, [1, 2, 3]));
    const smallFacts = await makeThumbnails(small);
    expect(await Promise.all(smallFacts.thumbnails.map(async (t) => (await sharp(t.bytes).metadata()).width))).toEqual([
      160, 300, 300,
    ]);
    const bomb = path.join(dir, "bomb.png");
    await writeFile(bomb, pngHeaderOnly(50_000, 50_000));
    expect((await refusal(makeThumbnails(bomb)))?.status).toBe(400);
  });
});
