import { randomBytes } from "node:crypto";
import type http from "node:http";
import type net from "node:net";
import { jsonLogLine } from "../lib/log-text";
import { newRequestNotes, type RequestNotes } from "../lib/request-notes";
import type { DbWaits } from "../db/db-context";
import { routeKind, type RouteKind } from "../lib/route-kind";
import { observeRequest } from "../models/ops/metrics.server";

// Every request is counted and timed for /metrics by its route kind, and
// (REQUEST_LOG) gets one JSON line on stdout when its answer ends:
//   {"time","level","msg":"request","id","method","kind","route","status","ms","shop"}
// plus "conn_wait_ms" on the first request of a connection: from the moment
// this process accepted the connection to its request (reading and parsing
// it; a client that connects early and asks later shows here too).
// `id` is the client's X-Request-Id when it is a plain token (a load
// balancer's; the answer carries it back), else a new one. `route` is the
// Remix route that answered (its deepest loader or action) or the server's
// own handler; `shop` the shop the door authenticated. The path itself is
// not logged: it can carry codes and tokens. Probes of /healthz and /readyz
// and scrapes of /metrics are counted but not logged.

const NOTES = Symbol.for("app.requestNotes");

/** The notes of a request (created by the observer; a fresh object for a request it did not see). */
export function requestNotes(req: http.IncomingMessage): RequestNotes {
  const holder = req as unknown as { [NOTES]?: RequestNotes };
  return (holder[NOTES] ??= newRequestNotes());
}

const SERVER_ROUTES: Partial<Record<RouteKind, string>> = {
  click: "server/click",
  webhook: "server/webhooks",
  asset: "server/static",
  ops: "server/ops",
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const ACCEPTED_AT = Symbol("app.acceptedAt");
type Accepted = { [ACCEPTED_AT]?: number };

/** Notes when the server accepted a connection (`server.on("connection", noteConnection)`). */
export function noteConnection(socket: net.Socket) {
  (socket as Accepted)[ACCEPTED_AT] = performance.now();
}

/** Ms from the connection's accept to this request, for the first request of a connection only. */
function connectionWait(req: http.IncomingMessage, started: number): number | undefined {
  const socket = req.socket as Accepted | null;
  const at = socket?.[ACCEPTED_AT];
  if (at === undefined) return undefined;
  // Cleared, not deleted: every socket keeps one shape (a delete would make V8 change it on each connection).
  socket![ACCEPTED_AT] = undefined;
  return started - at;
}

export interface RequestLogOptions {
  log: boolean;
  /** Where lines go (tests); default: stdout, batched. */
  write?: (line: string) => void;
  /** A request this slow (ms) gets a "slow request" line, whether or not `log` is on; default 2,000. */
  slowMs?: number;
  /** Where slow-request lines go (tests); default: stderr. */
  writeSlow?: (line: string) => void;
}

const SLOW_REQUEST_MS = 2000;
const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * The line for a slow request: where its time went in the database (the
 * rest is the process's own work, or its wait for a core). Written even
 * without the request log, since these are the ones to explain.
 */
export function slowRequestLine(
  method: string,
  route: string,
  status: number,
  ms: number,
  db: DbWaits | undefined,
  connWaitMs?: number,
) {
  return jsonLogLine({
    time: new Date().toISOString(),
    level: "warn",
    msg: "slow request",
    method,
    route,
    status,
    ms: round(ms),
    ...(connWaitMs !== undefined && { conn_wait_ms: round(connWaitMs) }),
    ...(db && {
      db: {
        queries: db.queries,
        query_ms: round(db.queryMs),
        lock_wait_ms: round(db.lockWaitMs),
        lock_tries: db.lockTries,
        transaction_queue_ms: round(db.txQueueMs),
      },
    }),
  });
}

// Lines are written together every few milliseconds: a write per request
// cost the click redirect a tenth of its CPU.
const FLUSH_MS = 25;
const FLUSH_BYTES = 64 * 1024;
let pending: string[] = [];
let pendingBytes = 0;
let timer: NodeJS.Timeout | null = null;
function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (pending.length === 0) return;
  const text = pending.join("\n") + "\n";
  pending = [];
  pendingBytes = 0;
  process.stdout.write(text);
}
function writeBatched(line: string) {
  pending.push(line);
  pendingBytes += line.length;
  if (pendingBytes >= FLUSH_BYTES) flush();
  else if (!timer) {
    timer = setTimeout(flush, FLUSH_MS);
    timer.unref();
  }
}
process.once("exit", flush);

// Route ids are the app's own file names; each is made a JSON string once.
const quoted = new Map<string, string>();
function quote(value: string) {
  let text = quoted.get(value);
  if (text === undefined) {
    text = jsonLogLine({ v: value }).slice(5, -1);
    if (quoted.size < 1000) quoted.set(value, text);
  }
  return text;
}

// Ids of our own: this process's random prefix and a counter (unique across
// instances and restarts, and a tenth of what a UUID costs to make).
const ID_PREFIX = randomBytes(6).toString("base64url");
let idCounter = 0;
const nextId = () => `${ID_PREFIX}-${(++idCounter).toString(36)}`;

// Many requests end within one millisecond: its ISO text is made once.
let isoMs = 0;
let isoText = "";
function isoNow() {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/** The line, written out field by field: JSON.stringify of a record costs twice as much. */
function logLine(
  id: string,
  method: string,
  kind: RouteKind,
  route: string,
  status: number,
  ms: number,
  shop: string | undefined,
  aborted: boolean,
  connWaitMs: number | undefined,
) {
  return (
    `{"time":"${isoNow()}","level":"${status >= 500 ? "error" : "info"}","msg":"request",` +
    `"id":"${id}","method":${quote(method)},"kind":"${kind}","route":${quote(route)},"status":${status},` +
    `"ms":${round(ms)},"shop":${shop === undefined ? "null" : jsonLogLine({ v: shop }).slice(5, -1)}` +
    `${connWaitMs === undefined ? "" : `,"conn_wait_ms":${round(connWaitMs)}`}${aborted ? ',"aborted":true' : ""}}`
  );
}

/** Starts watching a request: call first thing, for every request. */
export function createRequestObserver(options: RequestLogOptions) {
  const write = options.write ?? writeBatched;
  const slowMs = options.slowMs ?? SLOW_REQUEST_MS;
  const writeSlow = options.writeSlow ?? ((line: string) => process.stderr.write(`${line}\n`));
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = performance.now();
    const connWait = connectionWait(req, started);
    const kind = routeKind(req.url ?? "/");
    // A load balancer's id is sent back; one of our own is made only for the log.
    const sent = req.headers["x-request-id"];
    const given = typeof sent === "string" && REQUEST_ID.test(sent) ? sent : undefined;
    if (given) res.setHeader("x-request-id", given);
    res.on("close", () => {
      const ms = performance.now() - started;
      observeRequest(kind, res.statusCode, ms / 1000);
      if (kind === "ops") return;
      // Made only by whoever had something to note (the door, a route, the webhook handler).
      const notes = (req as unknown as { [NOTES]?: RequestNotes })[NOTES];
      const route = notes?.route ?? SERVER_ROUTES[kind] ?? "unmatched";
      if (ms >= slowMs) writeSlow(slowRequestLine(req.method ?? "", route, res.statusCode, ms, notes?.db, connWait));
      if (!options.log) return;
      // The client went away before the whole answer was written: aborted.
      write(
        logLine(
          given ?? nextId(),
          req.method ?? "",
          kind,
          route,
          res.statusCode,
          ms,
          notes?.shop,
          !res.writableFinished,
          connWait,
        ),
      );
    });
  };
}
