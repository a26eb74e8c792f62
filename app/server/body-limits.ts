import type { IncomingMessage, ServerResponse } from "node:http";
import { Transform, type TransformCallback } from "node:stream";
import { sendRefusal } from "../lib/refusal.server";

// Request body limits, per route kind, applied at the server's door
// (docs/decisions/016). Every handler buffers what it reads (formData, text,
// a webhook's raw body), so an unbounded body is unbounded memory.
//
// - A Content-Length over the limit is answered 413 at once with
//   `Connection: close`, and the body is read and dropped (up to a bound)
//   before the connection closes: a browser sends its whole upload before
//   it reads the answer, and a server that closes with the body unread
//   resets the connection, which throws the 413 away before the browser
//   reads it (it showed "connection reset"). A client that sends
//   `Expect: 100-continue` is refused before it sends anything.
// - A chunked body reaches its handler through limitedBody(), which counts
//   it; past the limit the handler's read fails (never a truncated body) and
//   the 413 goes out.
// - Whatever a handler left unread when its answer went out (a 405, a
//   redirect to the login page, the rest of a refused chunked body) is read
//   and dropped, up to a bound, so the next request on that keep-alive
//   connection is not stuck behind it until the connection times out.

const KB = 1024;
const MB = 1024 * KB;

export type BodyKind = "webhook" | "upload" | "media" | "api" | "form";
export interface BodyLimit {
  kind: BodyKind;
  maxBytes: number;
}

const LIMITS: Record<BodyKind, number> = {
  // Shopify's largest payloads (orders with hundreds of lines) stay well below.
  webhook: 5 * MB,
  // Portal images and CSV imports are capped at 2 MB by their own checks;
  // creatives (images affiliates download) may be larger.
  upload: 10 * MB,
  // The creatives upload: a file (brochure, brand kit zip) streamed to disk,
  // never held in memory; its own check caps images at 10 MB.
  media: 50 * MB,
  // As parseJsonBody's own cap.
  api: 256 * KB,
  // Every other form: logins, settings, editors, templates.
  form: 1 * MB,
};

const UPLOAD_PATHS = /^\/(admin|staff)\/(portals|creatives|affiliates)(\/|$)/;
const MEDIA_PATH = /^\/(admin|staff)\/creatives\/upload$/;

export function bodyLimitFor(pathname: string): BodyLimit {
  const kind: BodyKind =
    pathname === "/webhooks"
      ? "webhook"
      : MEDIA_PATH.test(pathname)
        ? "media"
        : UPLOAD_PATHS.test(pathname)
          ? "upload"
          : pathname.startsWith("/api/")
            ? "api"
            : "form";
  return { kind, maxBytes: LIMITS[kind] };
}

export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}

/** The error a handler's body read fails with when the body passes its limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${formatBytes(maxBytes)}.`);
    this.name = "BodyTooLargeError";
  }
}

// After an answer, the unread rest of a body is dropped up to this many
// bytes, for at most this long; past either, the connection is closed.
const DRAIN_MAX_BYTES = 16 * MB;
const DRAIN_TIMEOUT_MS = 10_000;
// A body refused by its declared length is read to its end when it is at
// most this large, for at most this long (what nginx calls lingering close);
// a larger one is closed on at once, as a client sending more has been told
// by the limit it would be.
const LINGER_MAX_BYTES = 64 * MB;
const LINGER_TIMEOUT_MS = 15_000;

export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function declaredLength(req: IncomingMessage): number | null {
  const raw = req.headers["content-length"];
  if (raw === undefined) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

const hasBody = (req: IncomingMessage) =>
  (declaredLength(req) ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

/** Answers 413 for a body over `limit`; `close` when its rest will never be read. */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: BodyLimit, close: boolean) {
  void sendRefusal(req, res, { kind: "payloadTooLarge", limit: formatBytes(limit.maxBytes) }, { close });
}

/** For `Expect: 100-continue`: false when the request must be refused before its body is sent. */
export function acceptsDeclaredBody(req: IncomingMessage): boolean {
  const length = declaredLength(req);
  return length === null || length <= bodyLimitFor(pathOf(req)).maxBytes;
}

/** Reads and drops what is left of a body once its answer is out, within bounds. */
function drainAfterAnswer(req: IncomingMessage) {
  if (req.complete || req.destroyed) return;
  req.unpipe();
  req.removeAllListeners("data");
  let dropped = 0;
  const timer = setTimeout(() => req.destroy(), DRAIN_TIMEOUT_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) {
      done();
      req.destroy();
    }
  });
  req.once("end", done);
  req.once("close", done);
  req.resume();
}

/**
 * Keeps reading (and dropping) a refused body after its 413 went out with
 * `Connection: close`, then closes: the answer is sent and the write side
 * ended (FIN) as usual, but the socket is destroyed only once the body has
 * arrived, the client closed, or a bound passed.
 */
function lingerAfterRefusal(req: IncomingMessage, res: ServerResponse, length: number) {
  if (length > LINGER_MAX_BYTES || req.headers.expect !== undefined) return;
  const socket = req.socket;
  // Node's server destroys a connection it answered "close" on as soon as
  // the answer is written; ending only the write side keeps the read side.
  socket.destroySoon = function endWritesOnly(this: typeof socket) {
    this.end();
  };
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_TIMEOUT_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  res.once("finish", () => {
    if (req.complete) return close();
    let dropped = 0;
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > length) close();
    });
    req.once("end", close);
    req.once("aborted", close);
    req.resume();
  });
}

/**
 * Applies the body limit of the request's route kind to its declared length.
 * Answers 413 and returns true when the request is refused; otherwise
 * returns false, and the request goes on to its handler.
 */
export function guardRequestBody(req: IncomingMessage, res: ServerResponse): boolean {
  if (!hasBody(req)) return false;
  const limit = bodyLimitFor(pathOf(req));
  const length = declaredLength(req);
  if (length !== null && length > limit.maxBytes) {
    lingerAfterRefusal(req, res, length);
    refuseTooLarge(req, res, limit, true);
    return true;
  }
  res.once("finish", () => drainAfterAnswer(req));
  return false;
}

/**
 * The request body as a stream that fails with BodyTooLargeError once more
 * than the route kind's limit has arrived (a chunked body has no declared
 * length to check up front). `onTooLarge` runs once, when that happens.
 */
export function limitedBody(req: IncomingMessage, onTooLarge: (limit: BodyLimit) => void) {
  const limit = bodyLimitFor(pathOf(req));
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      received += chunk.length;
      if (received <= limit.maxBytes) return callback(null, chunk);
      req.unpipe(counter);
      onTooLarge(limit);
      callback(new BodyTooLargeError(limit.maxBytes));
    },
  });
  req.once("error", (error) => counter.destroy(error));
  req.once("aborted", () => counter.destroy(new Error("The client closed the request.")));
  return req.pipe(counter);
}
