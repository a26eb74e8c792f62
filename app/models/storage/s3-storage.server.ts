import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { AppConfig } from "../../config.server";
import { checkStorageName, SAFE_NAME, SAFE_SHOP, type AssetStorage } from "./storage-names.server";

// The storage interface on an S3-compatible object store (AWS S3, MinIO,
// R2 and the like), chosen with STORAGE=s3. Keys are
// {S3_PREFIX}{area}/{shopId}/{fileName}; the app still serves the files
// itself (the bucket stays private), so the addresses do not change when an
// installation moves from disk to a bucket.

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix of this area, ending in "/". */
  keyPrefix: string;
  urlPrefix: string;
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

export function s3Storage({ client, bucket, keyPrefix, urlPrefix }: S3StorageOptions): AssetStorage {
  const key = (shopId: string, fileName: string) => `${keyPrefix}${shopId}/${fileName}`;
  const safe = (shopId: string, fileName: string) => SAFE_SHOP.test(shopId) && SAFE_NAME.test(fileName);
  return {
    async put(shopId, fileName, bytes) {
      checkStorageName(shopId, fileName);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key(shopId, fileName), Body: bytes, ContentLength: bytes.length }),
      );
      return `${urlPrefix}${shopId}/${fileName}`;
    },
    async putFile(shopId, fileName, localPath) {
      checkStorageName(shopId, fileName);
      const { size } = await stat(localPath);
      // A stream with its length: sent as it is read, never held whole.
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key(shopId, fileName),
          Body: createReadStream(localPath),
          ContentLength: size,
        }),
      );
    },
    async get(shopId, fileName) {
      if (!safe(shopId, fileName)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(shopId, fileName) }));
        return answer.Body ? await answer.Body.transformToByteArray() : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(shopId, fileName) {
      if (!safe(shopId, fileName)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(shopId, fileName) }));
        if (!answer.Body) return null;
        const body = answer.Body as unknown;
        const stream = body instanceof Readable ? body : Readable.fromWeb(answer.Body.transformToWebStream() as never);
        return { stream, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(shopId, fileName) {
      if (!safe(shopId, fileName)) return;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(shopId, fileName) }));
    },
    async list(shopId) {
      if (!SAFE_SHOP.test(shopId)) return [];
      const prefix = `${keyPrefix}${shopId}/`;
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          const name = item.Key?.slice(prefix.length) ?? "";
          if (SAFE_NAME.test(name)) names.push(`${urlPrefix}${shopId}/${name}`);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return names;
    },
  };
}

export function s3StorageFromConfig(config: AppConfig, area: string, urlPrefix: string): AssetStorage {
  if (!config.S3_BUCKET) throw new Error("STORAGE=s3 needs S3_BUCKET.");
  const client = new S3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE === "1",
    // Checksums only where S3 requires them: the SDK's newer default (a
    // CRC trailer on every upload) is not understood by every S3-compatible store.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Unset keys: the SDK's own chain (environment, instance role).
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
  });
  const base = config.S3_PREFIX && !config.S3_PREFIX.endsWith("/") ? `${config.S3_PREFIX}/` : config.S3_PREFIX;
  return s3Storage({ client, bucket: config.S3_BUCKET, keyPrefix: `${base}${area}/`, urlPrefix });
}
