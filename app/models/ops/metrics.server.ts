import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  register,
  type Metric,
} from "prom-client";
import type { RouteKind } from "../../lib/route-kind";

// Prometheus metrics (prom-client's default registry), served at GET /metrics
// behind METRICS_TOKEN (app/server/ops-handler.ts). Every process counts its
// own: the web process its requests and webhook intake, the job worker its
// e-mails, outgoing webhooks and PayPal calls. A worker that `npm start`
// supervises hands its numbers to the web process over their IPC channel, so
// one scrape sees both (labelled process="web" / "worker"); a worker on its
// own (`npm run worker`) serves them on METRICS_PORT.
//
// This module is loaded twice in the web process (the server build bundles
// it, the start script loads it from source), so each metric is looked up in
// the shared registry before it is made.

function once<M extends Metric>(name: string, make: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? make();
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpRequests = once(
  "http_requests_total",
  () =>
    new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by route kind and status class.",
      labelNames: ["kind", "status"] as const,
    }),
);
const httpDuration = once(
  "http_request_duration_seconds",
  () =>
    new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its answer's end, by route kind.",
      labelNames: ["kind"] as const,
      buckets: DURATION_BUCKETS,
    }),
);
const webhooksReceived = once(
  "shopify_webhooks_received_total",
  () =>
    new Counter({
      name: "shopify_webhooks_received_total",
      help: "Shopify webhooks at POST /webhooks, by topic and outcome (stored, duplicate, ignored, rejected).",
      labelNames: ["topic", "outcome"] as const,
    }),
);
const emailsSent = once(
  "emails_total",
  () =>
    new Counter({
      name: "emails_total",
      help: "Outbox e-mails handled by a worker, by outcome (sent, failed, unsent without SMTP_URL, logged by the demo).",
      labelNames: ["outcome"] as const,
    }),
);
const webhookDeliveries = once(
  "outgoing_webhook_attempts_total",
  () =>
    new Counter({
      name: "outgoing_webhook_attempts_total",
      help: "Attempts to deliver the merchants' outgoing webhooks, by outcome (delivered, failed).",
      labelNames: ["outcome"] as const,
    }),
);
const paypalCalls = once(
  "paypal_requests_total",
  () =>
    new Counter({
      name: "paypal_requests_total",
      help: "Calls to PayPal's API, by operation and outcome (the HTTP status class, or error).",
      labelNames: ["operation", "outcome"] as const,
    }),
);
const paypalDuration = once(
  "paypal_request_duration_seconds",
  () =>
    new Histogram({
      name: "paypal_request_duration_seconds",
      help: "Time a call to PayPal's API took, by operation.",
      labelNames: ["operation"] as const,
      buckets: DURATION_BUCKETS,
    }),
);

/** Labels every metric of this process with its role, and adds Node's own (memory, CPU, event loop). */
export function startProcessMetrics(role: "web" | "worker") {
  const state = globalThis as unknown as { __processMetrics?: string };
  if (state.__processMetrics) return;
  state.__processMetrics = role;
  register.setDefaultLabels({ process: role });
  collectDefaultMetrics();
}

const statusClass = (status: number) => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other");

// Label children are found once per label set: a request pays for two
// increments, not for hashing its labels.
const requestChildren = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();

export function observeRequest(kind: RouteKind, status: number, seconds: number) {
  const cls = statusClass(status);
  const key = `${kind}|${cls}`;
  let children = requestChildren.get(key);
  if (!children) {
    children = { count: httpRequests.labels(kind, cls), duration: httpDuration.labels(kind) };
    requestChildren.set(key, children);
  }
  children.count.inc();
  children.duration.observe(seconds);
}

export type WebhookOutcome = "stored" | "duplicate" | "ignored" | "rejected";
export function observeWebhook(topic: string, outcome: WebhookOutcome) {
  webhooksReceived.labels(topic, outcome).inc();
}

export function observeEmails(outcome: string, count = 1) {
  if (count > 0) emailsSent.labels(outcome).inc(count);
}

export function observeWebhookDelivery(ok: boolean) {
  webhookDeliveries.labels(ok ? "delivered" : "failed").inc();
}

/** PayPal's operation from a call's URL: a fixed name, never the batch id in the path. */
export function paypalOperation(url: string, method = "GET"): string {
  const path = new URL(url).pathname;
  if (path.endsWith("/oauth2/token")) return "token";
  if (path.endsWith("/verify-webhook-signature")) return "verify_webhook";
  if (/\/payments\/payouts\/?$/.test(path)) return method.toUpperCase() === "POST" ? "create_payout" : "list_payouts";
  if (/\/payments\/payouts\/[^/]+$/.test(path)) return "get_payout";
  if (/\/payments\/payouts-item\//.test(path)) return "payout_item";
  return "other";
}

/** Runs a PayPal call, counting it and timing it; its answer or error passes through unchanged. */
export async function meteredPaypal<T extends { status: number }>(
  url: string,
  init: { method?: string },
  call: () => Promise<T>,
): Promise<T> {
  const operation = paypalOperation(url, init.method);
  const started = performance.now();
  try {
    const response = await call();
    paypalCalls.labels(operation, statusClass(response.status)).inc();
    return response;
  } catch (error) {
    paypalCalls.labels(operation, "error").inc();
    throw error;
  } finally {
    paypalDuration.labels(operation).observe((performance.now() - started) / 1000);
  }
}

/** A gauge whose value is read when scraped (the job queue, from the database). */
export function gaugeCollectedOnScrape(
  name: string,
  help: string,
  labelNames: readonly string[],
  collect: (gauge: Gauge<string>) => Promise<void>,
) {
  return once(
    name,
    () =>
      new Gauge({
        name,
        help,
        labelNames,
        async collect() {
          await collect(this);
        },
      }),
  );
}

/** This process's metrics as JSON (what a worker hands the web process). */
export function metricsJson() {
  return register.getMetricsAsJSON();
}

/** The exposition text of this process's metrics and of the others' JSON (the supervised worker's). */
export async function metricsText(others: Awaited<ReturnType<typeof metricsJson>>[] = []) {
  if (others.length === 0) return { contentType: register.contentType, body: await register.metrics() };
  const merged = AggregatorRegistry.aggregate([await register.getMetricsAsJSON(), ...others]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
