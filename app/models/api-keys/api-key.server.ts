import { createHash, randomBytes } from "node:crypto";

// API keys are long random strings, so a fast hash is enough to store them:
// a leaked table does not reveal usable keys.
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function generateApiKey(): string {
  return `sk_${randomBytes(24).toString("base64url")}`;
}
