import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "~/config.server";
import { s3StorageFromConfig } from "~/models/storage/s3-storage.server";

// The storage interface on an S3-compatible store, through the real AWS SDK
// against a small in-process fake that speaks the S3 REST protocol (path-style
// PUT, GET, DELETE and ListObjectsV2 with XML answers). No bucket is reachable
// from here; what is checked is what the app asks of a store and the keys it uses.

const objects = new Map<string, Buffer>();
const seen: { method: string; url: string; signed: boolean }[] = [];
let server: Server;
let endpoint: string;

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });

const xml = (text: string) => `<?xml version="1.0" encoding="UTF-8"?>${text}`;
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://fake");
    const [, bucket, ...rest] = url.pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    seen.push({
      method: req.method!,
      url: req.url!,
      signed: /^AWS4-HMAC-SHA256 /.test(req.headers.authorization ?? ""),
    });
    if (bucket !== "media") {
      res.writeHead(404, { "content-type": "application/xml" });
      return res.end(xml("<Error><Code>NoSuchBucket</Code></Error>"));
    }
    if (req.method === "PUT") {
      objects.set(key, await body(req));
      res.writeHead(200, { etag: '"x"' });
      return res.end();
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === "GET" && !key && url.searchParams.get("list-type") === "2") {
      const prefix = url.searchParams.get("prefix") ?? "";
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      res.writeHead(200, { "content-type": "application/xml" });
      return res.end(
        xml(
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>media</Name><Prefix>${escape(prefix)}</Prefix>` +
            `<KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>` +
            keys
              .map((k) => `<Contents><Key>${escape(k)}</Key><Size>${objects.get(k)!.length}</Size></Contents>`)
              .join("") +
            `</ListBucketResult>`,
        ),
      );
    }
    if (req.method === "GET") {
      const found = objects.get(key);
      if (!found) {
        res.writeHead(404, { "content-type": "application/xml" });
        return res.end(
          xml("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>"),
        );
      }
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": found.length });
      return res.end(found);
    }
    res.writeHead(405);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const dir = mkdtempSync(path.join(os.tmpdir(), "s3-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function storage(area: string) {
  const config = {
    STORAGE: "s3",
    S3_BUCKET: "media",
    S3_ENDPOINT: endpoint,
    S3_REGION: "eu-central-1",
    S3_ACCESS_KEY_ID: "test-key",
    S3_SECRET_ACCESS_KEY: "test-secret",
    S3_PREFIX: "install-1",
    S3_FORCE_PATH_STYLE: "1",
  } as unknown as AppConfig;
  return s3StorageFromConfig(config, area, `/${area}-files/`);
}

describe("S3 storage", () => {
  it("puts, streams, lists and removes a shop's files under its area's keys", async () => {
    const creatives = storage("creatives");
    expect(await creatives.put("shop1", "abcd-banner.png", new Uint8Array([1, 2, 3]))).toBe(
      "/creatives-files/shop1/abcd-banner.png",
    );
    const local = path.join(dir, "kit.zip");
    writeFileSync(local, Buffer.alloc(300_000, 7));
    await creatives.putFile("shop1", "ef01-kit.zip", local);
    expect([...objects.keys()].sort()).toEqual([
      "install-1/creatives/shop1/abcd-banner.png",
      "install-1/creatives/shop1/ef01-kit.zip",
    ]);
    expect(objects.get("install-1/creatives/shop1/ef01-kit.zip")!.equals(Buffer.alloc(300_000, 7))).toBe(true);

    expect(Buffer.from((await creatives.get("shop1", "abcd-banner.png"))!)).toEqual(Buffer.from([1, 2, 3]));
    const opened = (await creatives.open("shop1", "ef01-kit.zip"))!;
    expect(opened.size).toBe(300_000);
    const streamed: Buffer[] = [];
    for await (const chunk of opened.stream) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed).length).toBe(300_000);

    // Another area and another shop list nothing of these.
    expect(await storage("uploads").list("shop1")).toEqual([]);
    expect(await creatives.list("shop2")).toEqual([]);
    expect((await creatives.list("shop1")).sort()).toEqual([
      "/creatives-files/shop1/abcd-banner.png",
      "/creatives-files/shop1/ef01-kit.zip",
    ]);

    await creatives.remove("shop1", "abcd-banner.png");
    expect(await creatives.get("shop1", "abcd-banner.png")).toBeNull();
    expect(await creatives.open("shop1", "abcd-banner.png")).toBeNull();
    expect(seen.every((r) => r.signed)).toBe(true);
  });

  it("refuses names it could not have written, without asking the store", async () => {
    const creatives = storage("creatives");
    const before = seen.length;
    await expect(creatives.put("shop1", "../escape.png", new Uint8Array([1]))).rejects.toThrow();
    await expect(creatives.put("../shop", "a.png", new Uint8Array([1]))).rejects.toThrow();
    expect(await creatives.get("shop1", "..%2Fsecret")).toBeNull();
    expect(await creatives.open("shop1", ".hidden")).toBeNull();
    expect(seen.length).toBe(before);
  });
});
