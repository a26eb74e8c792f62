import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureSecrets } from "./secrets";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "secrets-"));
  dirs.push(dir);
  return dir;
}
const envBefore = { ...process.env };
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  // ensureSecrets fills process.env; put it back as it was.
  for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
  Object.assign(process.env, envBefore);
});

const tsx = path.resolve("node_modules/.bin/tsx");
const module = path.resolve("app/cli/secrets.ts");

// One process that starts, waits for the common moment (so that the
// processes really collide), fills in its secrets and prints what it got.
function startOne(dataDir: string, at: number) {
  const code = `import { ensureSecrets } from ${JSON.stringify(module)};
while (Date.now() < ${at});
process.stdout.write(JSON.stringify(ensureSecrets(${JSON.stringify(dataDir)}).values));`;
  const script = path.join(dataDir, `..`, `${path.basename(dataDir)}-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(script, code);
  const env = { ...process.env };
  for (const name of ["SESSION_SECRET", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "DEMO_API_KEY", "PAYPAL_SECRET_KEY"])
    delete env[name];
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(tsx, [script], { env });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("exit", (exitCode) => {
      rmSync(script, { force: true });
      resolve({ code: exitCode, out, err });
    });
  });
}

describe("ensureSecrets", () => {
  it("generates once, stores owner-only, and reuses on the next start", () => {
    const dir = tempDir();
    delete process.env.SESSION_SECRET;
    process.env.DEMO_API_KEY = "sk_from_env";
    const first = ensureSecrets(dir);
    expect(first.generated).toContain("SESSION_SECRET");
    expect(first.generated).not.toContain("DEMO_API_KEY");
    expect(first.values.DEMO_API_KEY).toBe("sk_from_env");
    const stored = JSON.parse(readFileSync(first.file, "utf8"));
    expect(stored.DEMO_API_KEY).toBeUndefined();
    delete process.env.SESSION_SECRET;
    const second = ensureSecrets(dir);
    expect(second.generated).toEqual([]);
    expect(second.values.SESSION_SECRET).toBe(first.values.SESSION_SECRET);
    expect(readdirSync(dir).sort()).toEqual(["secrets.json"]);
  });

  it("gives processes that start together on one directory the same secrets", async () => {
    const dir = path.join(tempDir(), "data");
    const at = Date.now() + 3000;
    const results = await Promise.all(Array.from({ length: 6 }, () => startOne(dir, at)));
    for (const r of results) expect(r.err).toBe("");
    for (const r of results) expect(r.code).toBe(0);
    const values = results.map((r) => JSON.parse(r.out) as Record<string, string>);
    const stored = JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8"));
    for (const v of values) expect(v.SESSION_SECRET).toBe(stored.SESSION_SECRET);
    for (const v of values) expect(v.PAYPAL_SECRET_KEY).toBe(stored.PAYPAL_SECRET_KEY);
    // No lock or half-written file is left behind.
    expect(readdirSync(dir)).toEqual(["secrets.json"]);
  }, 60_000);

  it("names a damaged file instead of failing with a bare JSON error", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "secrets.json"), '{"SESSION_SECRET": "abc');
    delete process.env.SESSION_SECRET;
    expect(() => ensureSecrets(dir)).toThrow(/secrets\.json is not valid JSON/);
  });
});
