import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Secrets the app needs and may invent for itself when the environment does
// not set them. Generated once, stored with owner-only permissions next to
// the SQLite file, and reused on every later start.
const GENERATED = {
  SESSION_SECRET: () => randomBytes(32).toString("base64url"),
  SHOPIFY_API_KEY: () => `standalone-${randomBytes(8).toString("hex")}`,
  SHOPIFY_API_SECRET: () => randomBytes(24).toString("base64url"),
  DEMO_ADMIN_PASSWORD: () => readablePassword(),
  DEMO_STAFF_PASSWORD: () => readablePassword(),
  DEMO_API_KEY: () => `sk_demo_${randomBytes(18).toString("base64url")}`,
  // Encrypts the merchants' PayPal client secrets (app/models/paypal/secret-box.server.ts).
  PAYPAL_SECRET_KEY: () => randomBytes(32).toString("base64"),
} as const;

export type SecretName = keyof typeof GENERATED;

function readablePassword() {
  return randomBytes(12).toString("base64url");
}

export interface SecretsResult {
  file: string;
  generated: SecretName[];
  values: Record<SecretName, string>;
}

/** Fills process.env with every secret, generating and storing the missing ones. */
export function ensureSecrets(dataDir: string): SecretsResult {
  const file = path.join(dataDir, "secrets.json");
  mkdirSync(dataDir, { recursive: true });
  const stored: Partial<Record<SecretName, string>> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const generated: SecretName[] = [];
  const values = {} as Record<SecretName, string>;
  for (const name of Object.keys(GENERATED) as SecretName[]) {
    const fromEnv = process.env[name];
    if (fromEnv) {
      values[name] = fromEnv;
      continue;
    }
    if (!stored[name]) {
      stored[name] = GENERATED[name]();
      generated.push(name);
    }
    values[name] = stored[name]!;
    process.env[name] = stored[name];
  }
  if (generated.length > 0) writeFileSync(file, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  return { file, generated, values };
}
