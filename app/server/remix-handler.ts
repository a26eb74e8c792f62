import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import type express from "express";
import { inRequest, newDbWaits } from "../db/db-context";
import { limitedBody, refuseTooLarge } from "./body-limits";
import { requestNotes } from "./request-log";
import { cspNonce } from "./security-headers";

// Headers the door sets on every document (security-headers.ts); a route or
// library response (shopify-app-remix's bounce page) does not replace them.
const DOOR_HEADERS = new Set(["content-security-policy", "x-frame-options"]);

// Remix behind Express, as @remix-run/express does it, with one difference:
// the body a route reads is limitedBody(req), which fails once the body
// passes its route kind's limit. At that moment the 413 goes out and the
// route's request is aborted, so its late answer (and any error it logs) is
// dropped. @remix-run/express exports only its whole handler, so the
// request is built here the way it builds it.

function remixHeaders(req: express.Request): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

function remixUrl(req: express.Request): URL {
  // req.hostname has no port: take it from X-Forwarded-Host or Host.
  const portOf = (value: string | undefined) => Number.parseInt(value?.split(":")[1] ?? "", 10);
  const forwardedPort = portOf(req.get("x-forwarded-host"));
  const hostPort = portOf(req.get("host"));
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : null;
  // req.hostname and req.protocol follow Express's "trust proxy" setting;
  // originalUrl keeps the path that portal-ways may have rewritten.
  try {
    return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  } catch {
    // A Host (or X-Forwarded-Host) that makes no URL: the client's mistake.
    throw Object.assign(new Error("The Host header is not valid."), { status: 400 });
  }
}

function remixRequest(req: express.Request, res: express.Response) {
  const controller = new AbortController();
  let refused = false;
  // Abort the route's work if the answer can no longer be written.
  let answered = false;
  res.on("finish", () => (answered = true));
  res.on("close", () => {
    if (!answered) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: remixHeaders(req),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = limitedBody(req, (limit) => {
      refused = true;
      refuseTooLarge(req, res, limit, false);
      controller.abort();
    });
    init.body = createReadableStreamFromReadable(body);
    init.duplex = "half";
  }
  return { request: new Request(remixUrl(req), init), refused: () => refused };
}

async function sendResponse(res: express.Response, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    if (DOOR_HEADERS.has(key) && res.hasHeader(key)) continue;
    res.append(key, value);
  }
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

export function remixHandler(build: ServerBuild, mode: string): express.RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    let refused = () => false;
    try {
      let request: Request;
      ({ request, refused } = remixRequest(req, res));
      // The statements the route runs know its method and path (a GET must not write: db/write-on-read.ts);
      // requestNotes: where the door and the routes tell the request log about the request.
      // Its database time is counted for the slow-request line (request-log.ts).
      const notes = requestNotes(req);
      notes.db = newDbWaits();
      const response = await inRequest(
        req.method,
        req.path,
        () => handle(request, { cspNonce: cspNonce(res), requestNotes: notes }),
        notes.db,
      );
      // The body passed its limit while the route read it: the 413 is the answer.
      if (refused() || res.headersSent) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      await sendResponse(res, response);
    } catch (error) {
      if (!refused()) next(error);
    }
  };
}
