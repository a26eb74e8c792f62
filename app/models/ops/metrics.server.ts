import { AggregatorRegistry, collectDefaultMetrics, Gauge, register, type Metric } from "prom-client";
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

function once<M>(name: string, make: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? make();
}

// Counters and histograms the request path updates. prom-client's own hash
// each call's labels (sorting their keys) and cost the click redirect, the
// hottest request, several per cent of its throughput; these keep plain
// numbers by label values and hand prom-client's registry the same objects
// it would get from its own metrics when scraped (exposition, default
// labels, aggregation over processes).
class FastCounter {
  readonly type = "counter";
  readonly aggregator = "sum";
  private readonly series = new Map<string, { labels: Record<string, string>; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {
    register.registerMetric(this as unknown as Metric);
  }
  inc(values: readonly string[], by = 1) {
    const key = values.join("\u0000");
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels: Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]!])), value: 0 };
      this.series.set(key, entry);
    }
    entry.value += by;
  }
  get() {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.value })),
    });
  }
  reset() {
    this.series.clear();
  }
}

class FastHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, { counts: Float64Array; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly buckets: readonly number[],
  ) {
    register.registerMetric(this as unknown as Metric);
  }
  observe(label: string, value: number) {
    let entry = this.series.get(label);
    if (!entry) {
      entry = { counts: new Float64Array(this.buckets.length), sum: 0, count: 0 };
      this.series.set(label, entry);
    }
    // Cumulative at scrape; here only the first bucket that holds the value.
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    if (i < this.buckets.length) entry.counts[i]!++;
    entry.sum += value;
    entry.count++;
  }
  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const [label, entry] of this.series) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += entry.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, [this.labelName]: label }, value: cumulative });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { le: "+Inf", [this.labelName]: label },
        value: entry.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: { [this.labelName]: label }, value: entry.sum });
      values.push({ metricName: `${this.name}_count`, labels: { [this.labelName]: label }, value: entry.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
  reset() {
    this.series.clear();
  }
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const counter = (name: string, help: string, labelNames: readonly string[]) =>
  once(name, () => new FastCounter(name, help, labelNames));
const histogram = (name: string, help: string, labelName: string) =>
  once(name, () => new FastHistogram(name, help, labelName, DURATION_BUCKETS));

const httpRequests = counter("http_requests_total", "HTTP requests answered, by route kind and status class.", [
  "kind",
  "status",
]);
const httpDuration = histogram(
  "http_request_duration_seconds",
  "Time from a request's arrival to its answer's end, by route kind.",
  "kind",
);
const webhooksReceived = counter(
  "shopify_webhooks_received_total",
  "Shopify webhooks at POST /webhooks, by topic and outcome (stored, duplicate, ignored).",
  ["topic", "outcome"],
);
const emailsSent = counter(
  "emails_total",
  "Outbox e-mails handled by a worker, by outcome (sent, failed, unsent without SMTP_URL, logged by the demo).",
  ["outcome"],
);
const webhookDeliveries = counter(
  "outgoing_webhook_attempts_total",
  "Attempts to deliver the merchants' outgoing webhooks, by outcome (delivered, failed).",
  ["outcome"],
);
const paypalCalls = counter(
  "paypal_requests_total",
  "Calls to PayPal's API, by operation and outcome (the HTTP status class, or error).",
  ["operation", "outcome"],
);
const paypalDuration = histogram(
  "paypal_request_duration_seconds",
  "Time a call to PayPal's API took, by operation.",
  "operation",
);

/** Labels every metric of this process with its role, and adds Node's own (memory, CPU, event loop). */
export function startProcessMetrics(role: "web" | "worker") {
  const state = globalThis as unknown as { __processMetrics?: string };
  if (state.__processMetrics) return;
  state.__processMetrics = role;
  register.setDefaultLabels({ process: role });
  collectDefaultMetrics();
}

const STATUS_CLASSES = ["other", "1xx", "2xx", "3xx", "4xx", "5xx"];
const statusClass = (status: number) => STATUS_CLASSES[status >= 100 && status < 600 ? Math.floor(status / 100) : 0]!;

export function observeRequest(kind: RouteKind, status: number, seconds: number) {
  httpRequests.inc([kind, statusClass(status)]);
  httpDuration.observe(kind, seconds);
}

export type WebhookOutcome = "stored" | "duplicate" | "ignored" | "rejected";
export function observeWebhook(topic: string, outcome: WebhookOutcome) {
  webhooksReceived.inc([topic, outcome]);
}

export function observeEmails(outcome: string, count = 1) {
  if (count > 0) emailsSent.inc([outcome], count);
}

export function observeWebhookDelivery(ok: boolean) {
  webhookDeliveries.inc([ok ? "delivered" : "failed"]);
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
    paypalCalls.inc([operation, statusClass(response.status)]);
    return response;
  } catch (error) {
    paypalCalls.inc([operation, "error"]);
    throw error;
  } finally {
    paypalDuration.observe(operation, (performance.now() - started) / 1000);
  }
}

/** A gauge whose value is read when scraped (the job queue, from the database). */
export function gaugeCollectedOnScrape(
  name: string,
  help: string,
  labelNames: readonly string[],
  collect: (gauge: Gauge<string>) => Promise<void>,
) {
  return once<Gauge<string>>(
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
