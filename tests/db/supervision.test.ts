import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sampleOrder } from "~/models/shopify/sample-payloads";
import { seed } from "../bench/orders-bench";
import { freePort } from "../support/free-port";

// `npm start`'s processes under kill -9 (issue 9, finding 8), with real
// processes: the web process (app/cli/start.ts, served from the built app)
// and the job worker it starts. A killed worker is started again while the
// web process keeps serving; a killed web process takes its worker with it,
// so a restarted app never has two workers.

const ROOT = path.resolve(__dirname, "../..");

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface App {
  web: ChildProcess;
  port: number;
  output: () => string;
  workerPids: () => number[];
}

// The database file of each app started (by the web process's pid).
const appFiles = new Map<number, string>();

// Every process a test started or saw started, ended after it (by pid).
const started: number[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startApp(env: Record<string, string> = {}): Promise<App> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "supervision-"));
  dirs.push(dataDir);
  const port = await freePort();
  // node --import tsx: the spawned process is the web process itself.
  const web = spawn(process.execPath, ["--import", "tsx", "app/cli/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "app.sqlite")}`,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEMO: "1",
      SEED_DEMO: "0",
      WORKERS: "process",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(web.pid!);
  let text = "";
  web.stdout!.on("data", (c: Buffer) => (text += c.toString()));
  web.stderr!.on("data", (c: Buffer) => (text += c.toString()));
  appFiles.set(web.pid!, path.join(dataDir, "app.sqlite"));
  const workerPids = () => [...text.matchAll(/job worker w-(\d+)-\w+ started/g)].map((m) => Number(m[1]));
  await waitFor("the app to listen and its worker to start", () => /is running at/.test(text) && workerPids().length);
  return { web, port, output: () => text, workerPids };
}

async function status(port: number, pathname: string) {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
  await res.arrayBuffer();
  return res.status;
}

describe("npm start under kill -9", () => {
  it("starts a killed worker again, while the web process keeps serving", async () => {
    const app = await startApp();
    const [first] = app.workerPids();
    started.push(first!);
    process.kill(first!, "SIGKILL");
    await waitFor("the worker to die", () => !alive(first!));
    // The web process is still up and answering.
    expect(await status(app.port, "/login")).toBe(200);
    expect(alive(app.web.pid!)).toBe(true);
    const second = await waitFor("a new worker", () => app.workerPids().find((pid) => pid !== first), 15_000);
    started.push(second);
    expect(alive(second)).toBe(true);
    expect(app.output()).toMatch(/job worker exited \(SIGKILL\); starting it again/);
    // The new worker works: a second kill is survived too (after a longer pause).
    process.kill(second, "SIGKILL");
    const third = await waitFor("a third worker", () => app.workerPids().find((p) => p !== first && p !== second));
    started.push(third);
    expect(await status(app.port, "/login")).toBe(200);
  }, 90_000);

  it("ends the worker when the web process is killed", async () => {
    const app = await startApp();
    const [worker] = app.workerPids();
    started.push(worker!);
    process.kill(app.web.pid!, "SIGKILL");
    await waitFor("the worker to end after its web process died", () => !alive(worker!), 10_000);
    expect(app.output()).toMatch(/the web process is gone; stopping/);
  }, 90_000);
});

describe("npm start's worker and the web process's jobs", () => {
  // The worker process polls for due jobs when idle (JOB_POLL_MS); a webhook
  // the web process stores wakes it at once over the IPC channel. Here the
  // poll is ten minutes: before, the order waited for it (up to half a second
  // with the default, a good part of a burst's end to end).
  it("works on a stored webhook at once, not at its next poll", async () => {
    const secret = "supervision-webhook-secret";
    const app = await startApp({ JOB_POLL_MS: "600000", SHOPIFY_API_SECRET: secret });
    started.push(...app.workerPids());
    const file = appFiles.get(app.web.pid!)!;
    seed(file);
    // Let the worker's first look (at its start) pass and its long poll begin.
    await new Promise((r) => setTimeout(r, 1000));
    const body = sampleOrder({ couponCode: "LEAFA10" }).text;
    const res = await fetch(`http://127.0.0.1:${app.port}/webhooks`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "x-shopify-shop-domain": "bench-store.myshopify.com",
        "x-shopify-api-version": "2026-07",
        "x-shopify-webhook-id": randomUUID(),
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body).digest("base64"),
      },
    });
    expect(res.status).toBe(200);
    const db = new Database(file, { readonly: true });
    try {
      const commissions = () => (db.prepare(`SELECT count(*) AS n FROM "Commission"`).get() as { n: number }).n;
      await waitFor("the order's three commissions", () => commissions() === 3, 15_000);
    } finally {
      db.close();
    }
  }, 90_000);
});

describe("npm start stopped with SIGTERM", () => {
  // The worker logs its write-lock holds per job type as it stops (the load
  // bench reads them); a web process that exited first left its worker
  // running on, orphaned, and the report came after the exit or not at all.
  it("waits for its worker to stop, so the worker's last lines come before the web process exits", async () => {
    const app = await startApp();
    const [worker] = app.workerPids();
    started.push(worker!);
    const atExit = await new Promise<{ workerAlive: boolean; output: string }>((resolve) => {
      app.web.once("exit", () => resolve({ workerAlive: alive(worker!), output: app.output() }));
      process.kill(app.web.pid!, "SIGTERM");
    });
    expect(atExit.workerAlive).toBe(false);
    expect(atExit.output).toMatch(/WRITE_LOCK_HOLDS=\{/);
  }, 90_000);
});
