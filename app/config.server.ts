import path from "node:path";
import { z } from "zod";
import { productionProblems, resolveAppMode, type AppMode } from "./lib/app-mode";
import { PAYPAL_MAX_ITEMS_PER_REQUEST } from "./models/paypal/paypal-limits";

// Every setting comes from the environment. The start script (app/cli/start.ts)
// fills in generated secrets before anything reads this, so the app itself
// never writes configuration.
const ROOT = process.cwd();

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .min(1)
    .default(`file:${path.join(ROOT, "data/app.sqlite")}`),
  // Connections each process keeps to PostgreSQL.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  // How long a request waits for the database (SQLite's write lock, a pooled
  // PostgreSQL connection) before it is answered 503 with Retry-After.
  DATABASE_WAIT_MS: z.coerce.number().int().min(100).max(600_000).default(4000),
  // How often an idle job worker looks for due jobs. Jobs the web process
  // queues (a stored webhook) wake its own worker at once; this bounds the
  // wait for the rest (scheduled jobs, other instances' jobs with WORKERS=external).
  JOB_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(500),
  // "1": every statement to stderr (counting a page's statements, tests/bench/page-profile.ts).
  DEBUG_QUERIES: z.enum(["0", "1"]).default("0"),
  // Where the app keeps files it writes (uploads; the SQLite file by default).
  DATA_DIR: z.string().min(1).default(path.join(ROOT, "data")),
  // Behind a reverse proxy: take the client address from X-Forwarded-For.
  TRUST_PROXY: z
    .enum(["0", "1"], { message: "TRUST_PROXY must be 0 or 1" })
    .default("0")
    .transform((v) => v === "1"),
  // The "Instructions" link of the dashboard (a page of your own docs).
  HELP_DOCS_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters"),
  SHOPIFY_API_KEY: z.string().min(1),
  SHOPIFY_API_SECRET: z.string().min(1),
  SHOPIFY_APP_URL: z.string().url().optional(),
  SHOPIFY_API_VERSION: z.string().default("2026-07"),
  // Base URL that replaces https://{shop} for calls to Shopify (tests point it
  // at a local fake; unset in production).
  SHOPIFY_ADMIN_BASE_URL: z.string().url().optional(),
  SUPPORT_EMAIL: z.string().email().default("support@example.com"),
  // Shopify Billing: "1" creates test charges (development stores, review).
  SHOPIFY_BILLING_TEST: z
    .enum(["0", "1"], { message: "SHOPIFY_BILLING_TEST must be 0 or 1" })
    .default("0")
    .transform((v) => v === "1"),
  // A standalone shop that has not chosen a plan gets this one instead of the
  // plan screen (free, growth or pro). Unset: the merchant chooses.
  DEFAULT_PLAN: z.enum(["free", "growth", "pro"], { message: "DEFAULT_PLAN must be free, growth or pro" }).optional(),
  // Live-chat support in the admin (app/lib/support-chat.ts): crisp | tawk |
  // intercom, the provider's site or app id, and optionally the loader's URL
  // (a self-hosted copy; tests serve a stand-in). Unset: support is by e-mail.
  SUPPORT_CHAT_PROVIDER: z.enum(["crisp", "tawk", "intercom"]).optional(),
  SUPPORT_CHAT_ID: z.string().optional(),
  SUPPORT_CHAT_SCRIPT_URL: z.string().url().optional(),
  // Outgoing e-mail: smtp://user:pass@host:587 (or smtps://). Unset: e-mails
  // are written to the log (and kept in the OutboxEmail table).
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default("Affiliate program <no-reply@example.com>"),
  APP_NAME: z.string().default("Affiliate & Referral"),
  // "1": the demo even with SHOPIFY_API_KEY set; "0": production even without
  // (which then refuses to start). Unset: the demo exactly when no API key is
  // set (app/lib/app-mode.ts).
  DEMO: z.enum(["0", "1"], { message: "DEMO must be 0 or 1" }).optional(),
  DEMO_SHOP: z.string().default("demo-store.myshopify.com"),
  DEMO_ADMIN_EMAIL: z.string().email().default("admin@demo-store.example"),
  DEMO_STAFF_EMAIL: z.string().email().default("staff@demo-store.example"),
  // The demo only. "0": no demo shop. With it, e-mails of the demo shop are
  // printed to the log when SMTP_URL is unset (their links are live): nobody
  // else's are.
  SEED_DEMO: z.string().default("1"),
  // Set by `npm start` when it runs the store simulator beside the demo.
  STORE_SIMULATOR_URL: z.string().url().optional(),
  // DNS servers for custom-domain verification ("ip" or "ip:port", comma
  // separated); unset: the system's resolvers. Tests point it at a loopback server.
  DNS_SERVERS: z.string().optional(),
  // Where browsers load translation files from (spec section 7: a content
  // host), as {base}/{language}/{namespace}.json: a URL, or a path on the app.
  // Default: the app's own copy of public/locales. The server always reads
  // its own copy.
  TRANSLATIONS_BASE_URL: z
    .string()
    .regex(/^(https?:\/\/[^\s]+|\/[^\s]*)$/, "TRANSLATIONS_BASE_URL must be an http(s) URL or a path starting with /")
    .transform((v) => v.replace(/\/+$/, ""))
    .default("/locales"),
  // The pseudo-locale "pseudo" (accented, 40 % longer English) for layout
  // checks: on in tests, elsewhere only with PSEUDO_LOCALE=1.
  PSEUDO_LOCALE: z.enum(["0", "1"]).default("0"),
  // Outgoing webhooks to private, loopback, link-local or metadata addresses
  // are refused unless this is 1 (tests, a developer's machine), or the shop
  // is the demo's (its receivers run on this machine). Production refuses to
  // start with it.
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["0", "1"], { message: "WEBHOOKS_ALLOW_PRIVATE must be 0 or 1" })
    .default("0")
    .transform((v) => v === "1"),
  // Where uploads (portal images, creatives) are kept: "disk" (DATA_DIR/…) or
  // "s3", any S3-compatible object store named by the S3_* settings. Several
  // app instances behind one address need "s3" (docs/decisions/026).
  STORAGE: z.enum(["disk", "s3"]).default("disk"),
  S3_BUCKET: z.string().min(1).optional(),
  // Unset: AWS itself; set for another provider or a local MinIO.
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  // Folder inside the bucket, so one bucket can serve several installations.
  S3_PREFIX: z.string().default(""),
  // "1": bucket in the path (MinIO and most self-hosted stores).
  S3_FORCE_PATH_STYLE: z.enum(["0", "1"]).default("0"),
  // 32 bytes (base64 or hex) that encrypt the merchants' PayPal client
  // secrets at rest (AES-256-GCM). `npm start` generates one into
  // data/secrets.json when unset; changing it makes stored secrets unreadable
  // (merchants connect PayPal again).
  PAYPAL_SECRET_KEY: z.string().min(32, "PAYPAL_SECRET_KEY must be 32 bytes in base64 or hex").optional(),
  // Replaces https://api-m.paypal.com / https://api-m.sandbox.paypal.com for
  // every PayPal call (tests and the demo point it at a local fake).
  PAYPAL_API_BASE_URL: z
    .string()
    .url()
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  // One JSON line per request on stdout (app/server/request-log.ts). Unset:
  // on in production, off in the demo and in tests.
  REQUEST_LOG: z.enum(["0", "1"], { message: "REQUEST_LOG must be 0 or 1" }).optional(),
  // A request slower than this (ms) gets a "slow request" line on stderr with
  // where its database time went, with or without REQUEST_LOG.
  SLOW_REQUEST_MS: z.coerce
    .number({ message: "SLOW_REQUEST_MS must be a number of milliseconds" })
    .int("SLOW_REQUEST_MS must be a whole number of milliseconds")
    .min(1, "SLOW_REQUEST_MS must be at least 1")
    .default(2000),
  // GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset: 404.
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  // A job worker on its own (`npm run worker`) serves /metrics and /healthz on
  // this port (the web process serves the metrics of the worker it starts).
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Days after which done jobs, processed webhook events, the bodies of sent
  // e-mails and finished outgoing webhook deliveries are deleted by the daily
  // retention job; 0 keeps everything.
  RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  // How long one PayPal call may take before it counts as a timeout.
  PAYPAL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  // Seconds before the first status check of a sent PayPal batch; each later
  // check waits twice as long, up to six hours, until every item is final.
  PAYPAL_FOLLOW_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  // Items per PayPal batch: a larger batch goes as several, each its own
  // sender_batch_id. PayPal takes at most 15,000; tests set fewer.
  PAYPAL_BATCH_MAX_ITEMS: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAYPAL_MAX_ITEMS_PER_REQUEST)
    .default(PAYPAL_MAX_ITEMS_PER_REQUEST),
});

export type AppConfig = z.infer<typeof schema> & {
  appUrl: string;
  isHttps: boolean;
  dnsServers: string[];
  mode: AppMode;
  /** The seeded demo shop's domain in the demo; null in production or without the seed. */
  demoShop: string | null;
  /** Whether each request gets a JSON log line (REQUEST_LOG, else on in production only). */
  requestLog: boolean;
};

let cached: AppConfig | undefined;

export function getConfig(): AppConfig {
  if (cached) return cached;
  const problems = productionProblems(process.env);
  if (problems.length) throw new Error(`Invalid configuration for production: ${problems.join("; ")}`);
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${detail}`);
  }
  const appUrl = (parsed.data.SHOPIFY_APP_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/$/, "");
  const dnsServers = (parsed.data.DNS_SERVERS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const mode = resolveAppMode(process.env);
  const demoShop = mode === "demo" && parsed.data.SEED_DEMO !== "0" ? parsed.data.DEMO_SHOP : null;
  const requestLog = parsed.data.REQUEST_LOG
    ? parsed.data.REQUEST_LOG === "1"
    : mode === "production" && parsed.data.NODE_ENV !== "test";
  cached = { ...parsed.data, appUrl, isHttps: appUrl.startsWith("https://"), dnsServers, mode, demoShop, requestLog };
  return cached;
}

/**
 * Whether a shop's outgoing webhooks may go to private, loopback, link-local
 * or metadata addresses: with WEBHOOKS_ALLOW_PRIVATE=1 (never in production),
 * or for the demo shop, whose receivers run on this machine. Any other shop
 * of a demo could otherwise read this machine's services through its
 * delivery log.
 */
export function allowsPrivateWebhookTargets(shopDomain: string | null | undefined) {
  const config = getConfig();
  return config.WEBHOOKS_ALLOW_PRIVATE || (config.demoShop !== null && shopDomain === config.demoShop);
}

// Tests change the environment between suites.
export function resetConfigForTests() {
  cached = undefined;
}
