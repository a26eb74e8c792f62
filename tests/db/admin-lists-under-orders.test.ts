import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";

// Issue 26's "done means": a merchant opens every admin list while the store
// simulator sends 100 orders (`npm run simulate -- order --count 100`), and
// every page answers 200. The app runs as `npm start` runs it, a web process
// and the job worker it supervises, on a fresh SQLite file, so the worker
// writes the orders, e-mails and outgoing webhooks while the pages are read.
// NODE_ENV=test: a GET that wrote would be refused (and so fail a page).
const ROOT = path.resolve(__dirname, "../..");
const PASSWORD = "under-orders-pass-0123";
const LISTS = [
  "/admin/dashboard",
  "/admin/campaigns",
  "/admin/affiliates",
  "/admin/sales",
  "/admin/sales?status=pending",
  "/admin/payouts",
  "/admin/payouts?status=processing",
  "/admin/payouts?status=paid",
  "/admin/payouts?status=failed",
  "/admin/mails",
  "/admin/mails?tab=log",
  "/admin/bonuses",
  "/admin/creatives",
  "/admin/referrals",
  "/admin/referrals/history",
  "/admin/portals",
  "/admin/settings/integrations",
  "/admin/settings/staff",
];

const dataDir = mkdtempSync(path.join(os.tmpdir(), "under-orders-"));
const children: ChildProcess[] = [];

function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "app/cli", script), ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const output: string[] = [];
  child.stdout!.on("data", (c: Buffer) => output.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output, exited };
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("every admin list while 100 orders arrive", () => {
  it("answers 200 every time", { timeout: 240_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dataDir,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      STORE_SIMULATOR_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO_ADMIN_PASSWORD: PASSWORD,
      DEMO_STAFF_PASSWORD: PASSWORD,
    };
    const app = run("start.ts", [], env);
    const deadline = Date.now() + 150_000;
    while (!app.output.join("").includes("is running at")) {
      if (app.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the app did not start:\n${app.output.join("")}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const login = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: "admin@demo-store.example", password: PASSWORD }),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    // The same environment: the simulator finds the app's secrets and its store. Each order is
    // credited to a demo affiliate by their code, so the worker writes commissions and events too.
    const simulate = run(
      "simulate.ts",
      ["order", "--count", "100", "--items", "2", "--code", "NOAHM13", "--url", base],
      env,
    );
    let done = false;
    void simulate.exited.then(() => (done = true));
    const answers: string[] = [];
    let views = 0;
    while (!done) {
      for (const list of LISTS) {
        const res = await fetch(base + list, { headers: { cookie }, redirect: "manual" });
        await res.arrayBuffer();
        views++;
        if (res.status !== 200) answers.push(`${list} ${res.status}`);
      }
    }
    expect(await simulate.exited, simulate.output.join("").slice(-2000)).toBe(0);
    expect(simulate.output.join("").match(/^order #\d+/gm)?.length).toBe(100);
    expect(views).toBeGreaterThanOrEqual(LISTS.length);
    expect(answers).toEqual([]);
    expect(app.output.join("")).not.toMatch(/must not write|unexpected error/);
  });
});
