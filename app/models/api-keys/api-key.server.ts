import { createHash, randomBytes } from "node:crypto";
import { getDb } from "../../db.server";

// API keys are long random strings, so a fast hash is enough to store them:
// a leaked table does not reveal usable keys.
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function generateApiKey(): string {
  return `sk_${randomBytes(24).toString("base64url")}`;
}

/** Stores a key (given, or generated) for a shop; returns the plain key once. */
export async function createApiKey(shopId: string, name: string, key = generateApiKey()) {
  await getDb().apiKey.upsert({
    where: { keyHash: hashApiKey(key) },
    update: { shopId, name, revokedAt: null },
    create: { shopId, name, prefix: key.slice(0, 10), keyHash: hashApiKey(key) },
  });
  return key;
}
