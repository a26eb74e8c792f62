import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
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
  // Encrypts the merchants' PayPal client secrets and the affiliates' bank details (app/lib/secret-box.server.ts).
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

/**
 * Fills process.env with every secret, generating and storing the missing ones.
 *
 * Several processes may start at once on one data directory (two app
 * instances and a worker, say), so the file is only ever replaced whole
 * (written aside, then renamed) and the one that generates holds a lock file
 * while it re-reads, fills in and writes: every process ends with the same
 * values and none reads half a file.
 */
export function ensureSecrets(dataDir: string): SecretsResult {
  const file = path.join(dataDir, "secrets.json");
  mkdirSync(dataDir, { recursive: true });
  const names = Object.keys(GENERATED) as SecretName[];
  const missing = (stored: Partial<Record<SecretName, string>>) =>
    names.filter((name) => !process.env[name] && !stored[name]);

  let stored = readStored(file);
  const generated: SecretName[] = [];
  if (missing(stored).length > 0) {
    withLock(`${file}.lock`, () => {
      stored = readStored(file);
      for (const name of missing(stored)) {
        stored[name] = GENERATED[name]();
        generated.push(name);
      }
      if (generated.length === 0) return;
      const aside = `${file}.${process.pid}.tmp`;
      writeFileSync(aside, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
      renameSync(aside, file);
    });
  }
  const values = {} as Record<SecretName, string>;
  for (const name of names) {
    values[name] = process.env[name] || stored[name]!;
    process.env[name] = values[name];
  }
  return { file, generated, values };
}

function readStored(file: string): Partial<Record<SecretName, string>> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  try {
    return JSON.parse(text) as Partial<Record<SecretName, string>>;
  } catch {
    throw new Error(`${file} is not valid JSON; fix it or delete it to generate new secrets.`);
  }
}

// A lock older than this was left by a process killed while holding it (the
// work under it takes milliseconds).
const STALE_LOCK_MS = 10_000;

function withLock(lockFile: string, work: () => void) {
  const deadline = Date.now() + 2 * STALE_LOCK_MS;
  for (;;) {
    try {
      closeSync(openSync(lockFile, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) throw error;
      try {
        if (Date.now() - statSync(lockFile).mtimeMs > STALE_LOCK_MS) unlinkSync(lockFile);
      } catch {
        // Released meanwhile: try again.
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    work();
  } finally {
    unlinkSync(lockFile);
  }
}
