// The load bench (issue 26): a freshly started app, as `npm start` runs it,
// under 200 connections for 60 s that mix what a busy shop sends at once:
// `/r/` clicks, signed orders/create + orders/paid webhooks (some refunded
// later), logged-in admin GETs of every list screen, approve and Pay POSTs
// from the admin and the REST API, while the job worker sends the e-mails
// (to a loopback SMTP server) and outgoing webhooks (to a loopback receiver)
// those orders cause. It prints per kind of request: count, non-2xx by
// status, p50 / p99 / max, the requests over 5 s, the processes' peak RSS,
// and the job worker's longest hold of SQLite's write lock per job type.
//
// Targets: 0 5xx, 0 requests over 5 s, every click and webhook stored once,
// p99 of admin pages under 1 s on SQLite; every job type's longest
// write-lock hold under 50 ms.
//
//   npm run bench (entry "load")          SQLite (npm start: web + its worker), then PostgreSQL
//                                         (two instances + two workers), 60 s each
//   tsx tests/bench/load-bench.ts --smoke  SQLite for 20 s; exits 1 on any 5xx (CI)
//   LOAD_DB=sqlite|postgresql  LOAD_SECONDS=60  LOAD_CONNECTIONS=200
//   LOAD_MODE=burst            10,000 clicks/s for 30 s on PostgreSQL, two instances
//   LOAD_APP_ROOT=/path        the app to start (another checkout: "before" numbers)
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { sampleOrder, sampleRefund } from "../../app/models/shopify/sample-payloads";
import { freePort } from "../support/free-port";
import { lockHoldsIn } from "./lock-holds";
import { processCpuMs } from "./process-cpu";
import { WebhookReceiver } from "../support/webhook-receiver";
import type { BenchResult } from "./run";

const APP_ROOT = path.resolve(process.env.LOAD_APP_ROOT ?? path.resolve(__dirname, "../.."));
const PG_SERVER = process.env.LOAD_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SHOP = "demo-store.myshopify.com";
const SECRET = "load-bench-webhook-secret";
const PASSWORD = "load-bench-pass-0123";
const API_KEY = "sk_load_bench_0123456789abcdef";
const SLOW_MS = 5000;
// The app logs its requests slower than this, with their database time.
const SLOW_REQUEST_MS = 1000;
// Lines of the app that explain a slow request or a long write-lock hold.
const EXPLAINED = /"msg":"slow request"|\[db\] long write-lock hold/;
// The request-log lines of requests the bench named (admin and API ones; clicks and webhooks carry no id).
const ADMIN_REQUEST_ID = /"id":"(lb-\d+)"/;
let requestCounter = 0;

interface SlowRequestLine {
  method: string;
  route: string;
  status: number;
  ms: number;
  db?: { queries: number; query_ms: number; lock_wait_ms: number; lock_tries: number; transaction_queue_ms: number };
}
const GIVE_UP_MS = 30_000;
// How long the burst waits for answers after its last click.
const DRAIN_MS = 60_000;

type Kind = "click" | "webhook" | "admin-get" | "admin-post" | "api";

// The mix of the 200 connections, by kind (closed loop: each connection sends
// its next request when the last one is answered).
const SHARE: Record<Kind, number> = { click: 0.74, webhook: 0.14, "admin-get": 0.06, "admin-post": 0.02, api: 0.04 };

interface Sample {
  kind: Kind;
  label: string;
  status: number;
  ms: number;
  /** Sent on a new connection (the first request of its lane, or after the socket closed). */
  fresh: boolean;
  phases?: Phases;
}

/** Where a request's time went on the load generator's side (ms from the call). */
interface Phases {
  /** A socket was handed to it (a kept-alive one, or a new connection). */
  socket: number;
  reused: boolean;
  /** A new connection was established (TCP). */
  connected?: number;
  /** The request was written out. */
  sent: number;
  /** The answer's headers arrived. */
  headers: number;
  /** The X-Request-Id it carried (the app's request log names it), and when it was out (epoch ms). */
  id?: string;
  sentAtEpoch?: number;
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  /** The app's slow-request and long-hold lines, kept whatever else the output trims. */
  explained: string[];
  rssPeakKb: number;
  logFile?: string;
  /** The app's request-log lines of the bench's admin and API requests, by their X-Request-Id. */
  requestLines: Map<string, string>;
}

// ---------- processes ----------

function envFor(dataDir: string, databaseUrl: string, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dataDir,
    NODE_ENV: "production" as const,
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: "load-bench-session-secret-0123456789",
    SHOPIFY_API_KEY: "load-bench-api-key",
    SHOPIFY_API_SECRET: SECRET,
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    DEMO_ADMIN_PASSWORD: PASSWORD,
    DEMO_STAFF_PASSWORD: PASSWORD,
    DEMO_API_KEY: API_KEY,
    PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
    // The demo (issue 27's modes): its seeded shop, the store simulator and
    // outgoing webhooks to this machine are what the mix needs; production
    // mode refuses all three. The secrets above are used as given.
    DEMO: "1",
    SLOW_REQUEST_MS: String(SLOW_REQUEST_MS),
    // As in production (the demo mode leaves it off): the bench finds its slowest answers' lines in it.
    REQUEST_LOG: "1",
    ...extra,
  };
}

/**
 * Starts an app process. With `logFile` its output goes straight to that
 * file: under a burst every click writes a request log line, and reading
 * them through a pipe would cost the load generator, which shares the
 * machine's cores with the app, more CPU than sending the clicks.
 */
function startProc(name: string, script: string, env: NodeJS.ProcessEnv, logFile?: string): Proc {
  const fd = logFile ? openSync(logFile, "a") : undefined;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(APP_ROOT, "app/cli", script)], {
    cwd: APP_ROOT,
    env,
    stdio: fd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  const proc: Proc = { name, child, output: [], explained: [], rssPeakKb: 0, logFile, requestLines: new Map() };
  // A pipe hands over chunks, not lines: a long line (the write-lock report)
  // can arrive in two, so each stream keeps its unfinished last line.
  const keeper = () => {
    let partial = "";
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!line || line.startsWith("[store]")) continue;
        proc.output.push(line);
        if (EXPLAINED.test(line) && proc.explained.length < 20_000) proc.explained.push(line);
        const id = ADMIN_REQUEST_ID.exec(line)?.[1];
        if (id && proc.requestLines.size < 50_000) proc.requestLines.set(id, line);
        if (proc.output.length > 2000) proc.output.splice(0, 500);
      }
    };
  };
  child.stdout?.on("data", keeper());
  child.stderr?.on("data", keeper());
  return proc;
}

/** The process's latest output lines (from its log file when it has one). */
function outputOf(proc: Proc): string[] {
  if (!proc.logFile) return proc.output;
  const text = readFileSync(proc.logFile, "utf8");
  return text
    .slice(-256 * 1024)
    .split("\n")
    .filter(Boolean);
}

async function waitUntilServing(proc: Proc, base: string) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited:\n${outputOf(proc).slice(-40).join("\n")}`);
    if (outputOf(proc).some((l) => l.includes("is running at"))) {
      const ok = await new Promise<boolean>((resolve) => {
        http
          .get(`${base}/webhooks`, (res) => {
            res.resume();
            resolve(res.statusCode === 405);
          })
          .on("error", () => resolve(false));
      });
      if (ok) return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${proc.name} did not start:\n${outputOf(proc).slice(-40).join("\n")}`);
}

function stopProc(proc: Proc, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      proc.child.kill("SIGKILL");
      resolve();
    }, 15_000);
    // "close": the process exited and its output (its worker's too, which
    // shares the pipe) has all been read.
    proc.child.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    proc.child.kill(signal);
  });
}

/** Peak resident memory of a process and its children (npm start's worker), sampled. */
function sampleRss(procs: Proc[]) {
  const rssOf = (pid: number) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const children = (pid: number) =>
    readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return (
            readFileSync(`/proc/${d}/stat`, "utf8")
              .replace(/^.*\) /, "")
              .split(" ")[1] === String(pid)
          );
        } catch {
          return false;
        }
      })
      .map(Number);
  const timer = setInterval(() => {
    for (const proc of procs) {
      const pid = proc.child.pid;
      if (!pid) continue;
      const total = rssOf(pid) + children(pid).reduce((n, c) => n + rssOf(c), 0);
      proc.rssPeakKb = Math.max(proc.rssPeakKb, total);
    }
  }, 1000);
  return () => clearInterval(timer);
}

// ---------- HTTP ----------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
  phases?: Phases;
}

function send(
  agent: http.Agent,
  base: string,
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const url = new URL(pathname, base);
  const start = performance.now();
  // Admin and API requests are named, so their line in the app's request log can be found.
  const named = Object.keys(headers).length > 0 && !("x-shopify-topic" in headers);
  const id = named ? `lb-${++requestCounter}` : undefined;
  const phases: Phases = { socket: -1, reused: false, sent: -1, headers: -1, ...(id && { id }) };
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: {
          ...headers,
          ...(id && { "x-request-id": id }),
          ...(body !== undefined ? { "content-length": Buffer.byteLength(body) } : {}),
        },
        timeout: GIVE_UP_MS,
      },
      (res) => {
        phases.headers = performance.now() - start;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - start,
            phases,
          }),
        );
        res.on("error", () => resolve({ status: 0, headers: {}, body: "", ms: performance.now() - start }));
      },
    );
    req.on("socket", (socket) => {
      phases.socket = performance.now() - start;
      phases.reused = req.reusedSocket;
      if (!req.reusedSocket) socket.once("connect", () => (phases.connected = performance.now() - start));
    });
    req.on("finish", () => {
      phases.sent = performance.now() - start;
      phases.sentAtEpoch = performance.timeOrigin + start + phases.sent;
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, headers: {}, body: "", ms: performance.now() - start }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

// ---------- the demo shop ----------

interface Demo {
  codes: string[];
  cookies: string[];
}

async function login(agent: http.Agent, base: string) {
  const res = await send(
    agent,
    base,
    "POST",
    "/login",
    { "content-type": "application/x-www-form-urlencoded", origin: base },
    new URLSearchParams({ email: "admin@demo-store.example", password: PASSWORD }).toString(),
  );
  if (res.status !== 302) throw new Error(`admin login answered ${res.status}`);
  const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  return cookies.map((c) => c.split(";")[0]).join("; ");
}

async function prepareDemo(base: string, receiverUrl: string): Promise<Demo> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
  // Outgoing webhooks for every event, to the loopback receiver.
  const endpoint = await send(
    agent,
    base,
    "POST",
    "/api/v1/webhook-endpoints",
    auth,
    JSON.stringify({
      url: receiverUrl,
      event_types: ["sale.credited", "commission.created", "commission.updated", "payout.created", "payout.paid"],
    }),
  );
  if (endpoint.status !== 201 && endpoint.status !== 200)
    throw new Error(`creating the webhook endpoint answered ${endpoint.status}: ${endpoint.body}`);
  const codes: string[] = [];
  for (let cursor: string | null = null, i = 0; i < 5; i++) {
    const page = await send(
      agent,
      base,
      "GET",
      `/api/v1/affiliates?status=approved&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      auth,
    );
    const json = JSON.parse(page.body) as { data: { referral_code: string }[]; next_cursor?: string | null };
    codes.push(...json.data.map((a) => a.referral_code));
    cursor = json.next_cursor ?? null;
    if (!cursor) break;
  }
  if (codes.length === 0) throw new Error("the demo shop has no approved affiliates");
  const cookies = [];
  for (let i = 0; i < 4; i++) cookies.push(await login(agent, base));
  agent.destroy();
  return { codes, cookies };
}

// ---------- the mix ----------

const ADMIN_LISTS = [
  "/admin/dashboard",
  "/admin/campaigns",
  "/admin/affiliates",
  "/admin/sales",
  "/admin/sales?status=pending",
  "/admin/payouts",
  "/admin/payouts?status=processing",
  "/admin/payouts?status=paid",
  "/admin/mails",
  "/admin/mails?tab=log",
  "/admin/bonuses",
  "/admin/creatives",
  "/admin/referrals",
  "/admin/referrals/history",
  "/admin/portals",
  "/admin/settings/integrations",
];

// A merchant reads a page before opening the next: admin connections pause
// 0.25-0.75 s between requests (clicks and webhooks do not).
const think = () => new Promise((r) => setTimeout(r, 250 + Math.random() * 500));

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const data = (pathname: string, route: string) =>
  `${pathname}${pathname.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route)}`;

function signed(topic: string, body: string) {
  return {
    "content-type": "application/json",
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": SHOP,
    "x-shopify-api-version": "2026-07",
    "x-shopify-webhook-id": randomUUID(),
    "x-shopify-hmac-sha256": createHmac("sha256", SECRET).update(body, "utf8").digest("base64"),
  };
}

interface Tally {
  samples: Sample[];
  clickIds: string[];
  webhooksStored: Set<string>;
  orderGids: Set<string>;
}

/** One connection's loop of its kind until `until`. */
async function lane(kind: Kind, bases: string[], demo: Demo, until: number, tally: Tally, agent: http.Agent) {
  const record = (label: string, a: Answer) =>
    tally.samples.push({
      kind,
      label,
      status: a.status,
      ms: a.ms,
      fresh: a.phases?.reused === false,
      ...(a.ms > SLOW_REQUEST_MS && { phases: a.phases }),
    });
  const refundable: { orderId: string; lineId: string; price: string }[] = [];
  let n = 0;
  while (Date.now() < until) {
    const base = bases[n++ % bases.length]!;
    if (kind === "click") {
      const a = await send(agent, base, "GET", `/r/demo-store/${encodeURIComponent(pick(demo.codes).toLowerCase())}`);
      record("GET /r/{code}", a);
      const id = /[?&]_aff_click=([A-Za-z0-9_-]+)/.exec(String(a.headers.location ?? ""))?.[1];
      if (a.status === 302 && id) tally.clickIds.push(id);
    } else if (kind === "webhook") {
      // A refund of an earlier order now and then; otherwise a new order, created then paid.
      if (refundable.length > 0 && Math.random() < 0.1) {
        const r = refundable.shift()!;
        const body = sampleRefund(r.orderId, [{ lineId: r.lineId, quantity: 1, subtotal: r.price }]);
        await deliver(agent, base, "refunds/create", body, tally, record);
        continue;
      }
      const order = sampleOrder({ referralCode: pick(demo.codes) });
      tally.orderGids.add(`gid://shopify/Order/${order.orderId}`);
      const created = await deliver(agent, base, "orders/create", order.text, tally, record);
      if (created) await deliver(agent, bases[n % bases.length]!, "orders/paid", order.text, tally, record);
      const line = order.lines[0]!;
      if (refundable.length < 20) refundable.push({ orderId: order.orderId, lineId: line.id, price: line.price });
    } else if (kind === "admin-get") {
      const page = pick(ADMIN_LISTS);
      const a = await send(agent, base, "GET", page, { cookie: pick(demo.cookies) });
      record(`GET ${page.split("?")[0]}`, a);
      await think();
    } else if (kind === "admin-post") {
      await think();
      const cookie = pick(demo.cookies);
      const headers = { cookie, origin: base, "content-type": "application/json" };
      if (Math.random() < 0.5) {
        const route = "routes/$role.sales._index";
        const list = await send(agent, base, "GET", data("/admin/sales?status=pending", route), { cookie });
        record("GET /admin/sales (data)", list);
        const ids = list.status === 200 ? (JSON.parse(list.body).sales as { id: string }[]).slice(0, 3) : [];
        if (ids.length === 0) continue;
        const a = await send(
          agent,
          base,
          "POST",
          data("/admin/sales?index", route),
          headers,
          JSON.stringify({ intent: "approve", ids: ids.map((s) => s.id) }),
        );
        record("POST approve sales", a);
      } else {
        const route = "routes/$role.payouts._index";
        const list = await send(agent, base, "GET", data("/admin/payouts?status=pending", route), { cookie });
        record("GET /admin/payouts (data)", list);
        const ids = list.status === 200 ? (JSON.parse(list.body).payouts as { id: string }[]).slice(0, 2) : [];
        if (ids.length === 0) {
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        const a = await send(
          agent,
          base,
          "POST",
          data("/admin/payouts?index", route),
          headers,
          JSON.stringify({ intent: "pay", ids: ids.map((p) => p.id), method: "manual" }),
        );
        // 409: another connection paid these first (a lost race changes nothing).
        record("POST pay payouts", a);
      }
    } else {
      const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
      const list = await send(agent, base, "GET", "/api/v1/sales?status=pending&limit=5", auth);
      record("GET /api/v1/sales", list);
      const first = list.status === 200 ? (JSON.parse(list.body).data as { id: string }[])[0] : undefined;
      if (first)
        record(
          "POST /api/v1/sales/{id}/approve",
          await send(agent, base, "POST", `/api/v1/sales/${first.id}/approve`, auth, "{}"),
        );
    }
  }
}

async function deliver(
  agent: http.Agent,
  base: string,
  topic: string,
  body: string,
  tally: Tally,
  record: (label: string, a: Answer) => void,
) {
  const headers = signed(topic, body);
  // As Shopify does: a delivery that was not acknowledged is sent again (same id).
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = await send(agent, base, "POST", "/webhooks", headers, body);
    record(`POST /webhooks ${topic}`, a);
    if (a.status === 200) {
      tally.webhooksStored.add(headers["x-shopify-webhook-id"]);
      return true;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

// ---------- report ----------

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface KindReport {
  label: string;
  count: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  slow: number;
}

function summarize(samples: Sample[], key: (s: Sample) => string): KindReport[] {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const k = key(s);
    const list = groups.get(k);
    if (list) list.push(s);
    else groups.set(k, [s]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, list]) => {
      const ms = list.map((s) => s.ms).sort((a, b) => a - b);
      const statuses: Record<string, number> = {};
      for (const s of list)
        if (s.status < 200 || s.status >= 400) statuses[s.status || "none"] = (statuses[s.status || "none"] ?? 0) + 1;
      return {
        label,
        count: list.length,
        statuses,
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
        max: ms[ms.length - 1] ?? 0,
        slow: ms.filter((m) => m > SLOW_MS).length,
      };
    });
}

function printTable(rows: KindReport[]) {
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(
    `  ${"request".padEnd(34)} ${"count".padStart(7)} ${"p50".padStart(6)} ${"p99".padStart(6)} ${"max".padStart(7)} ${">5s".padStart(4)}  not 2xx/3xx`,
  );
  for (const r of rows) {
    const bad = Object.entries(r.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(
      `  ${r.label.padEnd(34)} ${fmt(r.count).padStart(7)} ${fmt(r.p50).padStart(6)} ${fmt(r.p99).padStart(6)} ${fmt(r.max).padStart(7)} ${String(r.slow).padStart(4)}  ${bad || "-"}`,
    );
  }
}

/** The worker's longest hold of SQLite's write lock per job type, from its log (WRITE_LOCK_HOLDS=...). */
const lockHolds = (procs: Proc[]) => lockHoldsIn(procs.flatMap((proc) => proc.output));

// ---------- databases ----------

interface Target {
  databaseUrl: string;
  count(sql: string, params: unknown[]): Promise<number>;
  rows(sql: string, params: unknown[]): Promise<{ k: string; n: number }[]>;
  close(): Promise<void>;
}

async function sqliteTarget(dataDir: string): Promise<Target> {
  const file = path.join(dataDir, "app.sqlite");
  let reader: Database.Database | undefined;
  return {
    databaseUrl: `file:${file}`,
    async count(sql, params) {
      reader ??= new Database(file, { readonly: true });
      return Number((reader.prepare(sql.replace(/\$\d+/g, "?")).get(...params) as { n: number | bigint }).n);
    },
    async rows(sql, params) {
      reader ??= new Database(file, { readonly: true });
      return (reader.prepare(sql.replace(/\$\d+/g, "?")).all(...params) as { k: string; n: number | bigint }[]).map(
        (r) => ({ k: r.k, n: Number(r.n) }),
      );
    },
    async close() {
      reader?.close();
    },
  };
}

async function postgresTarget(): Promise<Target> {
  const name = `load_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // DROP DATABASE … WITH (FORCE) at the end ends the idle connections still closing.
  pool.on("error", () => {});
  return {
    databaseUrl: url.toString(),
    async count(sql, params) {
      return Number((await pool.query(sql, params)).rows[0].n);
    },
    async rows(sql, params) {
      return (await pool.query(sql, params)).rows.map((r: { k: string; n: string }) => ({ k: r.k, n: Number(r.n) }));
    },
    async close() {
      await pool.end();
      const c = new pg.Client({ connectionString: PG_SERVER });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Rows of `table` whose `column` is in `values`, counted in slices (a value stored twice counts twice). */
async function countIn(target: Target, table: string, column: string, values: string[]) {
  let total = 0;
  for (let i = 0; i < values.length; i += 500) {
    const slice = values.slice(i, i + 500);
    const marks = slice.map((_, j) => `$${j + 1}`).join(", ");
    total += await target.count(`SELECT COUNT(*) AS n FROM "${table}" WHERE "${column}" IN (${marks})`, slice);
  }
  return total;
}

// ---------- the run ----------

export interface LoadOptions {
  db: "sqlite" | "postgresql";
  seconds: number;
  connections: number;
}

/** A check of the run; `gate`: the one the CI smoke fails on (any 5xx or unanswered request). */
type LoadCheck = { name: string; pass: boolean; gate?: true };

export async function runLoad(options: LoadOptions): Promise<{ checks: LoadCheck[] }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "load-bench-"));
  const target = options.db === "sqlite" ? await sqliteTarget(dataDir) : await postgresTarget();
  const procs: Proc[] = [];
  const receiver = new WebhookReceiver();
  let mails = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        mails++;
        callback();
      });
    },
  });
  const stopRss: (() => void)[] = [];
  try {
    await receiver.start();
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
    const ports = [await freePort(), await freePort()];
    const storePort = await freePort();
    const common = { SMTP_URL: smtpUrl };
    const bases: string[] = [];
    if (options.db === "sqlite") {
      // `npm start`: one web process and the job worker it supervises.
      const web = startProc(
        "web",
        "start.ts",
        envFor(dataDir, target.databaseUrl, ports[0]!, { ...common, STORE_SIMULATOR_PORT: String(storePort) }),
      );
      procs.push(web);
      bases.push(`http://127.0.0.1:${ports[0]}`);
      await waitUntilServing(web, bases[0]!);
    } else {
      // Two instances (the first seeds the demo and runs the store simulator) and two workers.
      const first = startProc(
        "web 1",
        "start.ts",
        envFor(dataDir, target.databaseUrl, ports[0]!, {
          ...common,
          WORKERS: "external",
          STORE_SIMULATOR_PORT: String(storePort),
        }),
      );
      procs.push(first);
      bases.push(`http://127.0.0.1:${ports[0]}`);
      await waitUntilServing(first, bases[0]!);
      const store = { SHOPIFY_ADMIN_BASE_URL: `http://127.0.0.1:${storePort}`, ...common };
      const second = startProc(
        "web 2",
        "start.ts",
        envFor(dataDir, target.databaseUrl, ports[1]!, { ...store, WORKERS: "external" }),
      );
      procs.push(second);
      bases.push(`http://127.0.0.1:${ports[1]}`);
      await waitUntilServing(second, bases[1]!);
      for (const n of [1, 2])
        procs.push(startProc(`worker ${n}`, "worker.ts", envFor(dataDir, target.databaseUrl, ports[0]!, store)));
    }
    stopRss.push(sampleRss(procs));
    const demo = await prepareDemo(bases[0]!, receiver.url("/hooks"));
    // Let the start-up jobs (catalogue sync, the demo's e-mails) get going, as after a real start.
    await new Promise((r) => setTimeout(r, 2000));

    const tally: Tally = { samples: [], clickIds: [], webhooksStored: new Set(), orderGids: new Set() };
    const until = Date.now() + options.seconds * 1000;
    const lanes: Promise<void>[] = [];
    const agents: http.Agent[] = [];
    let assigned = 0;
    const kinds = Object.keys(SHARE) as Kind[];
    for (const [i, kind] of kinds.entries()) {
      const count =
        i === kinds.length - 1 ? options.connections - assigned : Math.round(options.connections * SHARE[kind]);
      assigned += count;
      const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(1, count) });
      agents.push(agent);
      for (let c = 0; c < count; c++) lanes.push(lane(kind, bases, demo, until, tally, agent));
    }
    console.log(
      `  ${options.db}: ${bases.length} instance(s), ${options.connections} connections for ${options.seconds} s (${kinds
        .map((k) => `${k} ${Math.round(options.connections * SHARE[k])}`)
        .join(", ")})`,
    );
    await Promise.all(lanes);
    for (const agent of agents) agent.destroy();

    // Let the worker finish what the load left queued, then stop everything
    // (the worker logs its write-lock holds as it stops).
    const queued = () =>
      target.count(`SELECT COUNT(*) AS n FROM "Job" WHERE "status" IN ('queued', 'running') AND "runAt" <= $1`, [
        options.db === "sqlite" ? new Date().toISOString().replace("Z", "+00:00") : new Date().toISOString(),
      ]);
    const drainDeadline = Date.now() + 120_000;
    let left = await queued();
    while (left > 0 && Date.now() < drainDeadline) {
      await new Promise((r) => setTimeout(r, 1000));
      left = await queued();
    }
    // What the worker did not get to, by job type (why the queue did not drain).
    const leftByType =
      left > 0
        ? await target.rows(
            `SELECT "type" AS k, COUNT(*) AS n FROM "Job" WHERE "status" IN ('queued', 'running') GROUP BY "type" ORDER BY n DESC`,
            [],
          )
        : [];
    const doneByType = await target.rows(
      `SELECT "type" AS k, COUNT(*) AS n FROM "Job" GROUP BY "type" ORDER BY n DESC`,
      [],
    );
    for (const stop of stopRss) stop();
    for (const proc of [...procs].reverse()) await stopProc(proc);

    const rows = summarize(tally.samples, (s) => s.label);
    const byKind = summarize(tally.samples, (s) => s.kind);
    printTable(rows);
    console.log("  by kind:");
    printTable(byKind);
    console.log(
      `  peak RSS: ${procs.map((p) => `${p.name} ${Math.round(p.rssPeakKb / 1024)} MB`).join(", ")}; e-mails received ${mails}, outgoing webhooks received ${receiver.received.length}; jobs left ${left}`,
    );
    if (leftByType.length) console.log(`  jobs left by type: ${leftByType.map((r) => `${r.k} ${r.n}`).join(", ")}`);
    console.log(`  jobs by type (all states): ${doneByType.map((r) => `${r.k} ${r.n}`).join(", ")}`);
    const holds = lockHolds(procs);
    const holdKinds = Object.keys(holds);
    if (holdKinds.length)
      console.log(
        `  write-lock holds per job type: longest ms [its CPU ms] (holds, mean ms, holds of 50 ms or more; most CPU ms in one hold, holds of 50 CPU ms or more, holds that let the event loop run other work; garbage collection pauses in the holds of 50 ms or more / their wall time, ms):\n${holdKinds
          .map((k) => {
            const h = holds[k]!;
            const gc = h.over50 ? `; gc ${h.gcInOver50Ms.toFixed(1)} / ${h.over50Ms.toFixed(1)}` : "";
            return `    ${k.padEnd(26)} ${h.maxMs.toFixed(1).padStart(7)} [${h.cpuOfLongestMs.toFixed(1)}]  (${h.count}, ${(h.totalMs / h.count).toFixed(1)}, ${h.over50}; ${h.maxCpuMs.toFixed(1)}, ${h.over50Cpu}, ${h.yielded}${gc})`;
          })
          .join("\n")}`,
      );
    else if (options.db === "sqlite") console.log("  longest write-lock hold per job type: not reported by this app");

    const clicksStored = await countIn(target, "Click", "clickId", tally.clickIds);
    const webhookIds = [...tally.webhooksStored];
    const webhooksStored = await countIn(target, "WebhookEvent", "webhookId", webhookIds);
    const unprocessed = webhookIds.length
      ? await target.count(`SELECT COUNT(*) AS n FROM "WebhookEvent" WHERE "processedAt" IS NULL`, [])
      : 0;
    const orders = await countIn(target, "Order", "shopifyGid", [...tally.orderGids]);
    console.log(
      `  clicks answered 302: ${tally.clickIds.length}, stored: ${clicksStored}; webhooks acknowledged: ${webhookIds.length}, stored: ${webhooksStored}, not processed: ${unprocessed}; orders sent: ${tally.orderGids.size}, recorded: ${orders}`,
    );
    for (const line of procs
      .flatMap((p) =>
        p.output
          .filter((l) => /unexpected error|\[db\] |Error:|locked|timed out/i.test(l) && !EXPLAINED.test(l))
          .slice(0, 8)
          .map((l) => `${p.name}: ${l}`),
      )
      .slice(0, 12))
      console.log(`  log: ${line.slice(0, 220)}`);
    // The app's own account of its slow requests (over SLOW_REQUEST_MS, set
    // below SLOW_MS here): where their database time went.
    const explainedOf = (p: Proc) => (p.logFile ? outputOf(p).filter((l) => EXPLAINED.test(l)) : p.explained);
    const longHolds = procs.flatMap((p) =>
      explainedOf(p)
        .filter((l) => l.includes("long write-lock hold"))
        .map((l) => `${p.name}: ${l.slice(l.indexOf("[db]") + 5)}`),
    );
    if (longHolds.length) {
      console.log(`  long write-lock holds the worker explained: ${longHolds.length}`);
      for (const line of longHolds.slice(0, 10)) console.log(`    ${line.slice(0, 260)}`);
    }
    const slowLines = procs.flatMap((p) =>
      explainedOf(p)
        .filter((l) => l.includes('"msg":"slow request"'))
        .map((l) => ({ proc: p.name, line: JSON.parse(l.slice(l.indexOf("{"))) as SlowRequestLine })),
    );
    if (slowLines.length) {
      const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
      const byRoute = new Map<string, number[]>();
      for (const { line } of slowLines)
        byRoute.set(`${line.method} ${line.route}`, [...(byRoute.get(`${line.method} ${line.route}`) ?? []), line.ms]);
      console.log(
        `  slow requests the app logged (over ${SLOW_REQUEST_MS} ms): ${[...byRoute]
          .sort((a, b) => b[1].length - a[1].length)
          .map(([route, ms]) => `${route} ${ms.length} (max ${fmt(Math.max(...ms))})`)
          .join(", ")}`,
      );
      console.log(
        "  the slowest Remix ones (ms; db statements, their ms, write-lock wait ms and tries, transaction queue ms):",
      );
      for (const { proc, line } of slowLines
        .filter((l) => l.line.db)
        .sort((a, b) => b.line.ms - a.line.ms)
        .slice(0, 8)) {
        const db = line.db;
        console.log(
          `    ${proc}: ${line.method} ${line.route} ${line.status} ${fmt(line.ms)}` +
            (db
              ? `: ${db.queries} statements ${fmt(db.query_ms)}, lock wait ${fmt(db.lock_wait_ms)} (${db.lock_tries}), transaction queue ${fmt(db.transaction_queue_ms)}`
              : ""),
        );
      }
    }

    const fivexx = tally.samples.filter((s) => s.status >= 500 || s.status === 0).length;
    // The load generator's side of its slowest answers: when the socket came,
    // when the request was out, when the headers arrived.
    const slowest = tally.samples
      .filter((s) => s.phases && s.kind !== "click" && s.kind !== "webhook")
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6);
    if (slowest.length)
      console.log(
        `  the slowest admin and API answers as the load generator saw them (ms: socket, connected / sent / headers / end): ${slowest
          .map(
            (s) =>
              `${s.label} ${Math.round(s.phases!.socket)}${s.phases!.reused ? " (kept)" : `, ${s.phases!.connected === undefined ? "-" : Math.round(s.phases!.connected)}`} / ${Math.round(s.phases!.sent)} / ${Math.round(s.phases!.headers)} / ${Math.round(s.ms)}`,
          )
          .join("; ")}`,
      );
    // The app's side of an answer, from its request log: when its request
    // began after the generator had sent it, how long a new connection
    // waited between the accept and the request, and the app's own ms.
    const appSide = (s: Sample) => {
      const id = s.phases?.id;
      const found = id ? procs.map((p) => p.requestLines.get(id)).find(Boolean) : undefined;
      if (!found || s.phases?.sentAtEpoch === undefined) return undefined;
      const line = JSON.parse(found) as { time: string; ms: number; conn_wait_ms?: number };
      const beganAfterSent = Date.parse(line.time) - line.ms - s.phases.sentAtEpoch;
      // Before the process accepted the connection: what is left of the wait once the accept-to-request part is taken out.
      const beforeAccept = line.conn_wait_ms === undefined ? 0 : beganAfterSent - line.conn_wait_ms;
      return { beganAfterSent, connWaitMs: line.conn_wait_ms, ms: line.ms, beforeAccept };
    };
    const serverSide = slowest.flatMap((s) => {
      const a = appSide(s);
      return a
        ? [
            `${s.label} +${Math.round(a.beganAfterSent)} / ${a.connWaitMs === undefined ? "-" : Math.round(a.connWaitMs)} / ${Math.round(a.ms)}`,
          ]
        : [];
    });
    if (serverSide.length)
      console.log(
        `  the same answers as the app logged them (ms: its request began after the generator sent it / a new connection's wait from accept to request / the app's time): ${serverSide.join("; ")}`,
      );
    const slowSamples = tally.samples.filter((s) => s.ms > SLOW_MS);
    const slow = slowSamples.length;
    // Node.js 20 and later accept one new connection per turn of the event
    // loop (libuv 1.45): under load a burst of new connections waits in the
    // kernel's accept queue, one turn each (ADR 061).
    const waitedForAccept = slowSamples.filter((s) => {
      const a = appSide(s);
      return a !== undefined && a.beforeAccept > s.ms / 2;
    }).length;
    if (slow)
      console.log(
        `  of the ${slow} requests over 5 s, ${waitedForAccept} spent most of their time before the app accepted their new connection`,
      );
    // The same pages on connections already open: what a merchant's browser,
    // which keeps its connection, sees once the start's burst of new
    // connections is accepted (ADR 061).
    const adminKept = tally.samples
      .filter((s) => s.kind === "admin-get" && !s.fresh)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const adminFresh = tally.samples.filter((s) => s.kind === "admin-get" && s.fresh).length;
    console.log(
      `  admin pages p99 on connections already open: ${Math.round(percentile(adminKept, 99))} ms (${adminFresh} of ${adminKept.length + adminFresh} came on a new connection)`,
    );
    const admin = byKind.find((r) => r.label === "admin-get");
    const maxHold = Math.max(0, ...Object.values(holds).map((h) => h.maxMs));
    const checks: LoadCheck[] = [
      { name: `${options.db}: no 5xx and no request unanswered (${fivexx})`, pass: fivexx === 0, gate: true },
      { name: `${options.db}: no request over 5 s (${slow})`, pass: slow === 0 },
      {
        name: `${options.db}: every click answered 302 stored once (${clicksStored} of ${tally.clickIds.length})`,
        pass: clicksStored === tally.clickIds.length,
      },
      {
        name: `${options.db}: every acknowledged webhook stored once and processed (${webhooksStored} of ${webhookIds.length}, ${unprocessed} left)`,
        pass: webhooksStored === webhookIds.length && unprocessed === 0,
      },
    ];
    if (options.db === "sqlite") {
      checks.push({
        name: `sqlite: admin pages p99 under 1 s (${Math.round(admin?.p99 ?? 0)} ms)`,
        pass: (admin?.p99 ?? 0) < 1000,
      });
      checks.push({
        name: `sqlite: every job type holds the write lock under 50 ms (longest ${holdKinds.length ? maxHold.toFixed(1) : "not reported"})`,
        pass: holdKinds.length > 0 && maxHold < 50,
      });
    }
    return { checks };
  } finally {
    for (const stop of stopRss) stop();
    for (const proc of procs) await stopProc(proc, "SIGKILL");
    await receiver.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await target.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------- burst ----------

/** Connections the generator keeps to each instance at most (a proxy's pool). */
const MAX_SOCKETS = 256;

/**
 * 10,000 clicks/s for 30 s on PostgreSQL with two instances: every 302
 * committed, 0 errors, p99 < 50 ms.
 *
 * Open loop: click n is due at n / rate seconds, whatever the answers do;
 * sending stops at the deadline, so a generator that falls behind shows as a
 * sent rate under the one asked, never as a longer run. The generator shares
 * the machine's cores with both instances and PostgreSQL, so it reports what
 * it achieved (sent rate, how late it sent, its own CPU) beside the app's
 * latencies and the CPU the app spent per click.
 */
export async function runBurst(
  rate = Number(process.env.LOAD_BURST_RATE ?? 10_000),
  seconds = Number(process.env.LOAD_SECONDS ?? 30),
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "load-burst-"));
  const target = await postgresTarget();
  const procs: Proc[] = [];
  try {
    const ports = [await freePort(), await freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    const env = (port: number) =>
      envFor(dataDir, target.databaseUrl, port, { WORKERS: "external", STORE_SIMULATOR: "0" });
    procs.push(startProc("web 1", "start.ts", env(ports[0]!), path.join(dataDir, "web-1.log")));
    await waitUntilServing(procs[0]!, bases[0]!);
    procs.push(startProc("web 2", "start.ts", env(ports[1]!), path.join(dataDir, "web-2.log")));
    await waitUntilServing(procs[1]!, bases[1]!);
    const demo = await prepareDemo(bases[0]!, "http://127.0.0.1:9/unused");
    const paths = demo.codes.map((c) => `/r/demo-store/${encodeURIComponent(c.toLowerCase())}`);
    const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }));

    const total = Math.ceil(rate * seconds);
    // Per sent click: ms from sending to the 302 (the app's), and from when it was due (a visitor's, with the generator's lag).
    const serviceMs = new Float64Array(total);
    const fromDueMs = new Float64Array(total);
    const lateMs = new Float64Array(total);
    // 1 where the click's request opened a connection (not a kept-alive one),
    // and how long it waited in the generator's agent for a connection (all
    // 256 of an instance's busy).
    const newSocket = new Uint8Array(total);
    const socketWaitMs = new Float64Array(total);
    const ids: string[] = [];
    const statuses = new Map<string, number>();
    let answered = 0;
    let withoutClick = 0;
    let sent = 0;

    const fire = (n: number, due: number) => {
      const port = ports[n % 2]!;
      const at = performance.now();
      lateMs[n] = at - due;
      const done = (status: string, location?: string) => {
        const end = performance.now();
        serviceMs[n] = end - at;
        fromDueMs[n] = end - due;
        answered++;
        const id = location ? /[?&]_aff_click=([A-Za-z0-9_-]+)/.exec(location)?.[1] : undefined;
        if (status === "302" && id) ids.push(id);
        else {
          // A 302 without a click id is the answer to a click that was not committed.
          const key = status === "302" ? "302 without a click id" : status;
          if (status === "302") withoutClick++;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      };
      const req = http.request(
        { agent: agents[n % 2], host: "127.0.0.1", port, path: paths[n % paths.length], timeout: GIVE_UP_MS },
        (res) => {
          done(String(res.statusCode ?? 0), res.headers.location);
          res.resume();
        },
      );
      req.on("socket", (socket) => {
        // A connection it opens is still connecting; a queued request gets one another click freed.
        if (socket.connecting) newSocket[n] = 1;
        socketWaitMs[n] = performance.now() - at;
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error) => done(/timeout/.test(error.message) ? "timeout" : "connection error"));
      req.end();
    };

    // Warm-up: two seconds at a tenth of the rate (connections opened, code
    // lookups cached, code compiled), as a running shop's servers are when a
    // post goes out. Not counted.
    await new Promise<void>((resolve) => {
      let n = 0;
      const warm = setInterval(() => {
        for (let i = 0; i < rate / 1000; i++, n++) {
          http
            .get({ agent: agents[n % 2], host: "127.0.0.1", port: ports[n % 2], path: paths[n % paths.length] }, (r) =>
              r.resume(),
            )
            .on("error", () => {});
        }
      }, 10);
      setTimeout(() => {
        clearInterval(warm);
        setTimeout(resolve, 500);
      }, 2000);
    });

    const load0 = os.loadavg()[0]!;
    const appCpu0 = procs.map((p) => processCpuMs(p.child.pid) ?? 0);
    const ownCpu0 = process.cpuUsage();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await new Promise<void>((resolve) => {
      // A timer per millisecond, never a busy loop: the generator's spare CPU is the app's.
      const tick = () => {
        const now = performance.now();
        const due = Math.min(total, Math.floor(((Math.min(now, deadline) - started) / 1000) * rate));
        for (; sent < due; sent++) fire(sent, started + (sent / rate) * 1000);
        if (now >= deadline || sent >= total) resolve();
        else setTimeout(tick, 1);
      };
      tick();
    });
    const sendSeconds = (performance.now() - started) / 1000;
    const ownCpu = process.cpuUsage(ownCpu0);
    const answeredInTime = answered;
    // Bounded: what is not answered a minute after the last click was sent
    // counts as an error (requests queued behind an overloaded app have no
    // socket yet, so no socket timeout ends them).
    const drainUntil = performance.now() + DRAIN_MS;
    while (answered < sent && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
    const unanswered = sent - answered;
    if (unanswered > 0) statuses.set("unanswered after a minute", unanswered);
    const allSeconds = (performance.now() - started) / 1000;
    const appCpuMs = procs.reduce((n, p, i) => n + (processCpuMs(p.child.pid) ?? 0) - appCpu0[i]!, 0);
    const load1 = os.loadavg()[0]!;
    for (const agent of agents) agent.destroy();

    // Unanswered clicks have no latency: the percentiles are of the answered ones.
    const sorted = (a: Float64Array, from = 0, to = sent) =>
      Float64Array.from(a.subarray(from, to).filter((v) => v > 0)).sort();
    const service = sorted(serviceMs);
    const fromDue = sorted(fromDueMs);
    const late = sorted(lateMs);
    const pct = (a: Float64Array, p: number) =>
      a.length ? a[Math.min(a.length - 1, Math.floor((p / 100) * a.length))]! : 0;
    const stored = await countIn(target, "Click", "clickId", ids);
    const errors = sent - ids.length;
    const sentRate = sent / sendSeconds;
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
    const ms = (n: number) => n.toFixed(1);
    console.log(
      `  machine: ${os.cpus().length} cores, load average ${load0.toFixed(2)} before, ${load1.toFixed(2)} after (other work shares them)`,
    );
    console.log(
      `  generator: asked ${fmt(rate)}/s for ${seconds} s (${fmt(total)}), sent ${fmt(sent)} in ${sendSeconds.toFixed(1)} s = ${fmt(sentRate)}/s (${((100 * sentRate) / rate).toFixed(0)} % of the rate); sent late by p50 ${ms(pct(late, 50))} / p99 ${ms(pct(late, 99))} / max ${ms(late[late.length - 1] ?? 0)} ms; its CPU ${((100 * (ownCpu.user + ownCpu.system)) / 1000 / (sendSeconds * 1000)).toFixed(0)} % of a core`,
    );
    console.log(
      `  app (two instances): answered ${fmt(answeredInTime / sendSeconds)}/s while the clicks were sent, the last ${(allSeconds - sendSeconds).toFixed(1)} s after; ${((appCpuMs * 1000) / Math.max(1, sent)).toFixed(0)} µs of CPU per click, ${((100 * appCpuMs) / (allSeconds * 1000)).toFixed(0)} % of a core on average`,
    );
    console.log(
      `  GET /r/{code}: ${fmt(sent)} sent, ${fmt(ids.length)} answered 302 with a click id, stored ${fmt(stored)}; other answers: ${
        [...statuses].map(([k, n]) => `${k} ×${n}`).join(", ") || "none"
      }`,
    );
    console.log(
      `  latency, issued to 302:p50 ${ms(pct(service, 50))}  p99 ${ms(pct(service, 99))}  max ${ms(service[service.length - 1] ?? 0)} ms`,
    );
    console.log(
      `  latency, due to 302:   p50 ${ms(pct(fromDue, 50))}  p99 ${ms(pct(fromDue, 99))}  max ${ms(fromDue[fromDue.length - 1] ?? 0)} ms (with the generator's lag)`,
    );
    // Each second's p99 and the clicks over 50 ms: a tail made of a few stalls
    // (a checkpoint, a collection) shows as a few bad seconds, a queue as all.
    const bySecond = Array.from({ length: Math.ceil(seconds) }, (_, second) => {
      const from = Math.floor(second * rate);
      const slice = sorted(serviceMs, from, Math.min(sent, from + rate));
      const firstOver = slice.findIndex((v) => v >= 50);
      return { p99: pct(slice, 99), over50: firstOver < 0 ? 0 : slice.length - firstOver };
    });
    let slow = 0;
    let slowOnNew = 0;
    let slowQueued = 0;
    let opened = 0;
    for (let n = 0; n < sent; n++) {
      opened += newSocket[n]!;
      if (serviceMs[n]! >= 50) {
        slow++;
        slowOnNew += newSocket[n]!;
        if (socketWaitMs[n]! >= 5) slowQueued++;
      }
    }
    // The step from the warm-up's rate to the burst's opens connections (the
    // generator's agents, as a proxy's pool would) that each instance accepts
    // one per turn of its event loop (ADR 061), while the machine's two cores
    // also run the generator and PostgreSQL: a backlog forms in the first
    // second and drains at the machine's spare rate. The rest of the burst
    // shows the app once its connections are open.
    const afterFirst = sorted(serviceMs, rate);
    console.log(
      `  connections opened during the burst: ${fmt(opened)}; clicks over 50 ms: ${fmt(slow)}, of which ${fmt(slowOnNew)} opened a connection and ${fmt(slowQueued)} waited 5 ms or more for one (all ${MAX_SOCKETS} of an instance's busy)`,
    );
    console.log(
      `  latency after the first second (${fmt(afterFirst.length)} clicks): p50 ${ms(pct(afterFirst, 50))}  p99 ${ms(pct(afterFirst, 99))}  max ${ms(afterFirst[afterFirst.length - 1] ?? 0)} ms`,
    );
    console.log(
      `  each second's p99, ms (clicks over 50 ms): ${bySecond.map((s) => `${s.p99.toFixed(0)}${s.over50 ? ` (${s.over50})` : ""}`).join(" ")}`,
    );
    const p99 = pct(service, 99);
    return {
      checks: [
        {
          name: `burst: ${fmt(rate)} clicks/s for ${seconds} s sent on schedule (generator sent ${fmt(sentRate)}/s)`,
          pass: sentRate >= rate * 0.95,
        },
        { name: `burst: no errors (${errors}, of which ${withoutClick} 302s without a click id)`, pass: errors === 0 },
        { name: `burst: every 302 committed (${stored} of ${ids.length})`, pass: stored === ids.length },
        { name: `burst: p99 under 50 ms (${ms(p99)} ms at ${fmt(sentRate)}/s)`, pass: p99 < 50 },
      ],
    };
  } finally {
    for (const proc of procs) await stopProc(proc, "SIGKILL");
    await target.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The `npm run bench` entry. */
export async function loadBench(): Promise<BenchResult> {
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  const connections = Number(process.env.LOAD_CONNECTIONS ?? 200);
  if (process.env.LOAD_MODE === "burst") return runBurst();
  const dbs = process.env.LOAD_DB ? [process.env.LOAD_DB as LoadOptions["db"]] : (["sqlite", "postgresql"] as const);
  const checks: BenchResult["checks"] = [];
  for (const db of dbs) checks.push(...(await runLoad({ db, seconds, connections })).checks);
  return { checks };
}

// `tsx tests/bench/load-bench.ts --smoke`: CI's 20 s on SQLite, failing on any 5xx.
if (require.main === module) {
  const smoke = process.argv.includes("--smoke");
  const run: Promise<{ checks: LoadCheck[] }> = smoke
    ? runLoad({
        db: "sqlite",
        seconds: Number(process.env.LOAD_SECONDS ?? 20),
        connections: Number(process.env.LOAD_CONNECTIONS ?? 200),
      })
    : loadBench();
  run
    .then((result) => {
      // The smoke gates on 5xx only; its other checks are the 60 s bench's
      // targets, which 20 s is not held to. A miss of one says MISS, not
      // FAIL, so CI's log does not read as a failed gate.
      const gates = (check: LoadCheck) => !smoke || check.gate === true;
      if (smoke) console.log("  (the smoke fails on 5xx only; MISS: a target of the 60 s bench, not a gate here)");
      for (const check of result.checks)
        console.log(`  ${check.pass ? "PASS" : gates(check) ? "FAIL" : "MISS"}  ${check.name}`);
      process.exit(smoke && result.checks.some((check) => check.gate && !check.pass) ? 1 : 0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
