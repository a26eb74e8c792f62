import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";

// `npm run dev` is `shopify app dev`, which runs shopify.web.toml's dev
// command with the app's credentials, its tunnel as HOST and a PORT. Here the
// CLI's part is played by this test: app/cli/shopify-dev.ts is started with
// the variables the CLI sets and must serve the app against Shopify (no demo
// shop, no simulator) with local secrets and a SQLite file of its own.

const ROOT = path.resolve(__dirname, "../..");
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "app/cli/shopify-dev.ts"], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

describe("shopify.web.toml's dev command", () => {
  it("serves the app with the CLI's credentials and tunnel, local secrets and SQLite, and no demo part", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "shopify-dev-"));
    dirs.push(dataDir);
    const port = await freePort();
    const tunnel = "https://quiet-river-1234.trycloudflare.com";
    const dev = run({
      PATH: process.env.PATH ?? "",
      HOME: dataDir,
      DATA_DIR: dataDir,
      SHOPIFY_API_KEY: "cli-client-id-0123",
      SHOPIFY_API_SECRET: "cli-client-secret-0123",
      HOST: tunnel,
      PORT: String(port),
    });
    const until = Date.now() + 60_000;
    while (!/is running at/.test(dev.output())) {
      if (dev.child.exitCode !== null) throw new Error(`exited ${dev.child.exitCode}:\n${dev.output()}`);
      if (Date.now() > until) throw new Error(`timed out:\n${dev.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The tunnel is the app's URL; the process binds its own address.
    expect(dev.output()).toContain(`is running at ${tunnel} (port ${port})`);
    expect(dev.output()).toMatch(/^mode: production \(SQLite; no demo shop, no store simulator/m);
    expect(dev.output()).not.toMatch(/Admin login|store simulator:/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    // Local-only secrets, kept for the next run; the CLI's credentials are not written there.
    const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
    expect(secrets.SESSION_SECRET).toEqual(expect.any(String));
    expect(secrets.PAYPAL_SECRET_KEY).toEqual(expect.any(String));
    expect(secrets.SHOPIFY_API_KEY).toBeUndefined();
    expect(existsSync(path.join(dataDir, "app.sqlite"))).toBe(true);
  });

  it("refuses to run outside Shopify CLI, pointing at npm start for the demo", async () => {
    const dev = run({ PATH: process.env.PATH ?? "" });
    expect(await new Promise((resolve) => dev.child.once("exit", resolve))).toBe(1);
    expect(dev.output()).toMatch(/Run this through Shopify CLI \(`npm run dev`\).*npm start/);
  });
});
