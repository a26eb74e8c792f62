import path from "node:path";
import http from "node:http";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { getConfig } from "../config.server";
import { errorForLog } from "../lib/log-text";
import { loadNamespace, pseudoLocaleEnabled } from "../i18n/resources.server";
import { acceptsDeclaredBody, guardRequestBody } from "./body-limits";
import { createClickHandler, isClickRequest } from "./click-handler";
import { crossSiteForms } from "./cross-site-forms";
import { portalWays } from "./portal-ways";
import { hasExtension } from "./public-files";
import { remixHandler } from "./remix-handler";
import { commonSecurityHeaders, documentSecurityHeaders } from "./security-headers";
import { createWebhookHandler } from "./webhook-handler";
import { createOpsHandler } from "./ops-handler";
import { createRequestObserver, noteConnection } from "./request-log";
import { CLICK_COST, createTurnQueue, REQUESTS_PER_TURN } from "./turn-queue";
import { withRouteNotes } from "./route-notes";
import { startProcessMetrics } from "../models/ops/metrics.server";

export const PROJECT_ROOT = path.resolve(__dirname, "../..");
export const BUILD_PATH = path.join(PROJECT_ROOT, "build/index.js");

export function loadBuild(): ServerBuild {
  // The Remix server build is CommonJS (remix.config.js serverModuleFormat).
  return require(BUILD_PATH) as ServerBuild;
}

/** The HTTP application: static files, then every request through Remix. */
export function createApp(build: ServerBuild = loadBuild()) {
  const app = express();
  app.disable("x-powered-by");
  app.use(commonSecurityHeaders());
  app.use(compression());
  const pub = path.join(PROJECT_ROOT, "public");
  // Fingerprinted bundles never change; translations and other files may.
  app.use("/build", express.static(path.join(pub, "build"), { immutable: true, maxAge: "1y" }));
  // The pseudo-locale's files are made from English on demand (tests, PSEUDO_LOCALE=1).
  app.get("/locales/pseudo/:file", (req, res, next) => {
    const ns = req.params.file.replace(/\.json$/, "");
    const tree = pseudoLocaleEnabled() && req.params.file.endsWith(".json") ? loadNamespace("pseudo", ns) : null;
    if (!tree) return next();
    res.set("Cache-Control", "no-cache").json(tree);
  });
  app.use("/locales", express.static(path.join(pub, "locales"), { maxAge: "1h", fallthrough: false }));
  // Every file in public/ has an extension; a page's path has none, so it
  // skips the file-system lookup (a stat per document request otherwise).
  const publicFiles = express.static(pub, { maxAge: "1h", index: false });
  app.use((req, res, next) => (hasExtension(req.path) ? publicFiles(req, res, next) : next()));
  app.use((req, res, next) => {
    // A NUL byte has no business in a URL, and PostgreSQL refuses it in text.
    if (/%00|\0/.test(req.url)) {
      res.status(400).type("text/plain").send("Bad request");
      return;
    }
    // The client address for rate limiting; always overwritten, so a client
    // cannot choose it by sending the header itself.
    req.headers["x-app-remote-address"] = req.socket.remoteAddress ?? "unknown";
    next();
  });
  // The app proxy and custom domains onto the portal routes (lib/portal-ways.ts).
  app.use(portalWays());
  app.use(crossSiteForms(build));
  app.use(documentSecurityHeaders());
  app.all("*", remixHandler(withRouteNotes(build), getConfig().NODE_ENV));
  // Malformed requests that never reach Remix (a bad URI, a locale file that
  // does not exist) get a plain 4xx, never a stack trace.
  app.use(
    (
      error: { status?: number; statusCode?: number },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      // Already answered: a body refused at the door while its route read it.
      if (res.headersSent) return;
      const status = error.status ?? error.statusCode ?? 500;
      if (status >= 500) console.error(`[http] unexpected error: ${errorForLog(error)}`);
      res
        .status(status)
        .type("text/plain")
        .send(status === 404 ? "Not found" : status < 500 ? "Bad request" : "Something went wrong, please try again.");
    },
  );
  return app;
}

export function listen(app: express.Express, port: number, host: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    // GET /r/{code} (affiliate link clicks) is served by a plain Node handler
    // before Express: the hottest request needs none of the middleware.
    const clicks = createClickHandler();
    const webhooks = createWebhookHandler();
    // Health, readiness and metrics first: they must answer whatever else is wrong.
    const ops = createOpsHandler();
    startProcessMetrics("web");
    const observe = createRequestObserver({ log: getConfig().requestLog, slowMs: getConfig().SLOW_REQUEST_MS });
    // Every request but the health checks waits its turn (turn-queue.ts, ADR 061).
    const turns = createTurnQueue(
      (req: http.IncomingMessage, res: http.ServerResponse) => {
        // The client went away while it waited: nothing to answer.
        if (req.socket.destroyed) return;
        if (!clicks.handle(req, res) && !webhooks.handle(req, res)) app(req, res);
      },
      REQUESTS_PER_TURN,
      (req) => (isClickRequest(req) ? CLICK_COST : 1),
    );
    const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
      observe(req, res);
      if (ops.handle(req, res)) return;
      if (guardRequestBody(req, res)) return;
      turns.push(req, res);
    };
    const server = http.createServer(handle);
    server.on("connection", noteConnection);
    // A client that asks before sending its body hears "no" before sending it.
    server.on("checkContinue", (req, res) => {
      if (acceptsDeclaredBody(req)) res.writeContinue();
      handle(req, res);
    });
    server.on("close", () => {
      void clicks.close();
      webhooks.close();
    });
    server.keepAliveTimeout = 65_000;
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
