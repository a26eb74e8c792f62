import { randomUUID } from "node:crypto";
import type http from "node:http";
import { jsonLogLine } from "../lib/log-text";
import { newRequestNotes, type RequestNotes } from "../lib/request-notes";
import { routeKind, type RouteKind } from "../lib/route-kind";
import { observeRequest } from "../models/ops/metrics.server";

// Every request is counted and timed for /metrics by its route kind, and
// (REQUEST_LOG) gets one JSON line on stdout when its answer ends:
//   {"time","level","msg":"request","id","method","kind","route","status","ms","shop"}
// `id` is the client's X-Request-Id when it is a plain token (a load
// balancer's), else a new one; the answer carries it back. `route` is the
// Remix route that answered (its deepest loader or action) or the server's
// own handler; `shop` the shop the door authenticated. The path itself is
// not logged: it can carry codes and tokens. Probes of /healthz and /readyz
// and scrapes of /metrics are counted but not logged. Lines are written in
// batches, once per turn of the event loop.

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

export interface RequestLogOptions {
  log: boolean;
  /** Where lines go (tests); default: stdout, batched. */
  write?: (line: string) => void;
}

let pending: string[] = [];
let flushing = false;
function flush() {
  flushing = false;
  if (pending.length === 0) return;
  const text = pending.join("\n") + "\n";
  pending = [];
  process.stdout.write(text);
}
function writeBatched(line: string) {
  pending.push(line);
  if (!flushing) {
    flushing = true;
    setImmediate(flush);
  }
}
process.once("exit", flush);

/** Starts watching a request: call first thing, for every request. */
export function createRequestObserver(options: RequestLogOptions) {
  const write = options.write ?? writeBatched;
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = performance.now();
    const kind = routeKind(req.url ?? "/");
    const sent = req.headers["x-request-id"];
    const id = typeof sent === "string" && REQUEST_ID.test(sent) ? sent : randomUUID();
    res.setHeader("x-request-id", id);
    const notes = requestNotes(req);
    res.once("close", () => {
      const ms = performance.now() - started;
      observeRequest(kind, res.statusCode, ms / 1000);
      if (!options.log || kind === "ops") return;
      const record: Record<string, unknown> = {
        time: new Date().toISOString(),
        level: res.statusCode >= 500 ? "error" : "info",
        msg: "request",
        id,
        method: req.method,
        kind,
        route: notes.route ?? SERVER_ROUTES[kind] ?? "unmatched",
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        shop: notes.shop ?? null,
      };
      // The client went away before the whole answer was written.
      if (!res.writableFinished) record.aborted = true;
      write(jsonLogLine(record));
    });
  };
}
