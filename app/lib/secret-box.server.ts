import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getConfig } from "../config.server";
import { AppError } from "./errors";

// Secrets at rest (the merchant's PayPal client secret, an affiliate's bank
// details), encrypted with AES-256-GCM under PAYPAL_SECRET_KEY (the
// environment, or data/secrets.json that `npm start` fills; the name stayed
// when the affiliates' details joined). Stored as "v1:{iv}:{tag}:{ciphertext}"
// in base64url. The additional data names the owner (the shop id, or shop and
// affiliate): a ciphertext copied to another row does not decrypt. The version
// prefix leaves room for a key rotation.

const VERSION = "v1";

function keyBytes(raw: string | undefined): Buffer {
  if (!raw) {
    throw new AppError("unavailable", "PAYPAL_SECRET_KEY is not set: PayPal secrets cannot be stored.");
  }
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) throw new AppError("unavailable", "PAYPAL_SECRET_KEY must be 32 bytes (base64 or hex).");
  return key;
}

export function sealSecret(plain: string, owner: string, rawKey = getConfig().PAYPAL_SECRET_KEY): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyBytes(rawKey), iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(":");
}

/** The plain secret; throws when the key changed or the value was tampered with. */
export function openSecret(sealed: string, owner: string, rawKey = getConfig().PAYPAL_SECRET_KEY): string {
  const [version, iv, tag, data] = sealed.split(":");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", keyBytes(rawKey), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
