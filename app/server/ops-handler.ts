import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { getConfig } from "../config.server";
import { errorForLog } from "../lib/log-text";
import { metricsText, type metricsJson } from "../models/ops/metrics.server";
import { readQueueForScrape, registerQueueMetrics } from "../models/ops/queue-metrics.server";
import { checkReadiness, type Readiness } from "../models/ops/readiness.server";

// GET /healthz, /readyz and /metrics, answered before Express and Remix (as
// clicks and webhooks are): a probe every few seconds needs none of the
// middleware, and must answer even when the pages cannot.
// - /healthz: the process is up and its event loop turns. Always 200.
// - /readyz: 200 or 503 with each check (readiness.server.ts); a result is
//   reused for a second, so probes from outside cannot hammer the database.
// - /metrics: Prometheus text for `Authorization: Bearer <METRICS_TOKEN>`;
//   401 without it, 404 when no token is configured.

type MetricsJson = Awaited<ReturnType<typeof metricsJson>>;

// Other processes whose metrics /metrics includes (the worker `npm start` supervises).
const sources = new Set<() => Promise<MetricsJson | null>>();
export function addMetricsSource(source: () => Promise<MetricsJson | null>) {
  sources.add(source);
  return () => sources.delete(source);
}

function json(res: http.ServerResponse, status: number, body: unknown, head = false) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(head ? undefined : text);
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function tokenMatches(header: string | undefined, token: string) {
  const sent = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

export interface OpsHandler {
  /** Answers /healthz, /readyz and /metrics (true); anything else is left alone (false). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

export interface OpsOptions {
  /** false: no /readyz (a worker on its own serves only /healthz and /metrics). */
  readiness?: boolean;
  /** Default: METRICS_TOKEN. */
  token?: string;
}

export function createOpsHandler(options: OpsOptions = {}): OpsHandler {
  let lastReadiness: { at: number; result: Promise<Readiness> } | undefined;

  async function readyz(res: http.ServerResponse, head: boolean) {
    const now = Date.now();
    if (!lastReadiness || now - lastReadiness.at > 1000)
      lastReadiness = { at: now, result: checkReadiness(new Date(now)) };
    const result = await lastReadiness.result;
    json(res, result.ready ? 200 : 503, { status: result.ready ? "ready" : "not_ready", checks: result.checks }, head);
  }

  async function metrics(req: http.IncomingMessage, res: http.ServerResponse) {
    const token = "token" in options ? options.token : getConfig().METRICS_TOKEN;
    if (!token) return json(res, 404, { error: { code: "not_found", message: "Metrics are off: set METRICS_TOKEN." } });
    if (!tokenMatches(req.headers.authorization, token)) {
      res.setHeader("www-authenticate", 'Bearer realm="metrics"');
      return json(res, 401, {
        error: { code: "unauthenticated", message: "Send Authorization: Bearer <METRICS_TOKEN>." },
      });
    }
    if (options.readiness !== false) {
      registerQueueMetrics();
      await readQueueForScrape();
    }
    const others = (await Promise.all([...sources].map((source) => source().catch(() => null)))).filter(
      (m): m is MetricsJson => m !== null,
    );
    const { contentType, body } = await metricsText(others);
    res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
    res.end(body);
  }

  return {
    handle(req, res) {
      const url = req.url ?? "";
      // Every request passes here first: a prefix check before anything else.
      if (!url.startsWith("/healthz") && !url.startsWith("/readyz") && !url.startsWith("/metrics")) return false;
      const path = url.split("?", 1)[0];
      if (path !== "/healthz" && path !== "/metrics" && (path !== "/readyz" || options.readiness === false))
        return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        json(res, 405, { error: { code: "method_not_allowed", message: "Use GET." } });
        return true;
      }
      const head = req.method === "HEAD";
      const work =
        path === "/healthz"
          ? Promise.resolve(json(res, 200, { status: "ok" }, head))
          : path === "/readyz"
            ? readyz(res, head)
            : metrics(req, res);
      work.catch((error) => {
        console.error(`[ops] ${path} failed: ${errorForLog(error)}`);
        if (!res.headersSent) json(res, 503, { status: "error" }, head);
        else res.destroy();
      });
      return true;
    },
  };
}
