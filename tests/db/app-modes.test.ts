import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { sendTestEvent } from "~/models/webhooks-out/endpoints.server";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildShop } from "../support/builders";
import { freePort } from "../support/free-port";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// The two modes (app/lib/app-mode.ts). Production runs as a deployment runs
// it: `app/cli/start.ts` as a process of its own with only the README's
// variables, on this file's database (PostgreSQL when TEST_DATABASE_URL says
// so, as CI's second run does). The demo's rule for private webhook targets
// is checked in this process, with DEMO=1 and the test credentials.
const ROOT = path.resolve(__dirname, "../..");
const DEMO_SHOP = "demo-store.myshopify.com";

applyTestEnv({ DEMO: "1", DEMO_SHOP, WEBHOOKS_ALLOW_PRIVATE: "0" });
const database = useTestDatabase();
const server = useTestServer();

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The README's production variables, and nothing from this test process. */
function productionEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: dataDir,
    NODE_ENV: "production",
    DATABASE_URL: database.current().url,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: "production-session-secret-0123456789",
    PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  };
}

function startApp(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", "app/cli/start.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, output: () => string, ms = 60_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function listening(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "app-modes-"));
  dirs.push(dir);
  return dir;
}

describe("production mode", () => {
  it("refuses to start without its secrets or with a demo-only switch, and says why in one line", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const bare = startApp({
      PATH: process.env.PATH ?? "",
      HOME: dataDir,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SHOPIFY_API_KEY: API_KEY,
    });
    expect(await bare.exited).toBe(1);
    expect(bare.output().trim()).toBe(
      "Production mode (SHOPIFY_API_KEY is set) cannot start: set SHOPIFY_API_SECRET, SHOPIFY_APP_URL, SESSION_SECRET, " +
        "PAYPAL_SECRET_KEY, DATABASE_URL (production generates no secrets). For the demo, unset SHOPIFY_API_KEY or set DEMO=1.",
    );
    // Nothing generated: a second instance could not share it.
    expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);

    const withSwitches = startApp({
      ...productionEnv(port, dataDir),
      WEBHOOKS_ALLOW_PRIVATE: "1",
      SHOPIFY_ADMIN_BASE_URL: "http://127.0.0.1:9",
    });
    expect(await withSwitches.exited).toBe(1);
    expect(withSwitches.output()).toContain(
      "unset SHOPIFY_ADMIN_BASE_URL: it sends every shop's Admin API calls elsewhere",
    );
    expect(withSwitches.output()).toContain("unset WEBHOOKS_ALLOW_PRIVATE: it lets shops post to private addresses");
    expect(withSwitches.output()).not.toMatch(/\n\s+at /);
  });

  it("is ready with no demo shop, no store simulator and no secrets file, says so once, and refuses a loopback webhook target", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const simulatorPort = await freePort();
    const token = "production-metrics-token-0123";
    const app = startApp({
      ...productionEnv(port, dataDir),
      STORE_SIMULATOR_PORT: String(simulatorPort),
      METRICS_TOKEN: token,
    });
    await waitFor("the app to serve", () => /is running at/.test(app.output()), app.output);
    // Ready once its job worker (a process of its own) has beaten.
    let readiness: { status: number; body: unknown } = { status: 0, body: null };
    await waitFor(
      "/readyz to answer 200",
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        readiness = { status: res.status, body: await res.json() };
        return res.status === 200;
      },
      () => `${JSON.stringify(readiness)}\n${app.output()}`,
    );
    expect(readiness.body).toMatchObject({ status: "ready", checks: { migrations: { pending: [] } } });
    // The supervised worker's metrics come with the web process's.
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    const text = await metrics.text();
    expect(text).toMatch(/^process_cpu_user_seconds_total\{process="worker"\} /m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{process="web"\} /m);

    const modeLines = app
      .output()
      .split("\n")
      .filter((line) => line.startsWith("mode:"));
    expect(modeLines).toEqual([expect.stringMatching(/^mode: production \(.*no demo shop, no store simulator/)]);
    expect(app.output()).not.toMatch(/store simulator:|Admin login|demo:/);
    expect(await listening(simulatorPort)).toBe(false);
    expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);
    expect(await getDb().shop.count()).toBe(0);

    // A shop that is not the demo's cannot point its webhooks at this machine.
    const shop = await buildShop({ domain: DEMO_SHOP });
    const api = new ApiClient((p) => `http://127.0.0.1:${port}${p}`, (await buildApiKey(shop.id)).key);
    const res = await api.post("/api/v1/webhook-endpoints", {
      url: receiver.url(),
      event_types: ["affiliate.created"],
    });
    expect(res.status).toBe(422);
    expect(await getDb().webhookEndpoint.count()).toBe(0);
  });
});

describe("demo mode", () => {
  it("lets the demo shop, and no other, send webhooks to this machine", async () => {
    const demo = await buildShop({ domain: DEMO_SHOP });
    const other = await buildShop();
    const demoApi = new ApiClient(server.url, (await buildApiKey(demo.id)).key);
    const otherApi = new ApiClient(server.url, (await buildApiKey(other.id)).key);
    const body = { url: receiver.url("/demo"), event_types: ["affiliate.created"] };

    const refused = await otherApi.post("/api/v1/webhook-endpoints", { ...body, url: receiver.url("/other") });
    expect(refused.status).toBe(422);
    const created = await demoApi.post("/api/v1/webhook-endpoints", body);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await sendTestEvent(getDb(), demo.id, id);
    await drainJobs();
    expect(receiver.received.map((r) => r.path)).toEqual(["/demo"]);
  });
});
