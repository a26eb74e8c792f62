// The app runs in one of two modes, chosen from the environment once and
// stated in one line at start (app/cli/start.ts):
// - demo: `npm install && npm start` on a fresh machine. Secrets it lacks are
//   generated, a demo shop is seeded and its logins printed, the store
//   simulator runs beside it and the demo shop may send outgoing webhooks to
//   this machine.
// - production: real Shopify credentials. Nothing is generated, seeded,
//   simulated or rewritten, and private webhook targets are refused for every
//   shop; a setting only the demo may use is an error, not a silent no-op.
// Pure: the same answer in the web process, the worker and the tests.

export type AppMode = "demo" | "production";

type Env = Record<string, string | undefined>;

const set = (value: string | undefined) => value !== undefined && value.trim() !== "";

/** DEMO=1 or no SHOPIFY_API_KEY: the demo; DEMO=0 or an API key: production. */
export function resolveAppMode(env: Env): AppMode {
  if (env.DEMO === "1") return "demo";
  if (env.DEMO === "0") return "production";
  return set(env.SHOPIFY_API_KEY) ? "production" : "demo";
}

/** What production needs from the environment, since it generates nothing. */
export const PRODUCTION_REQUIRED = [
  "SHOPIFY_API_KEY",
  "SHOPIFY_API_SECRET",
  "SHOPIFY_APP_URL",
  "SESSION_SECRET",
  "PAYPAL_SECRET_KEY",
  "DATABASE_URL",
] as const;

/** Demo-only switches, and the value that turns each on. */
const DEMO_ONLY: { name: string; on: (value: string) => boolean; what: string }[] = [
  { name: "SEED_DEMO", on: (v) => v !== "0", what: "seeds a demo shop" },
  { name: "STORE_SIMULATOR", on: (v) => v !== "0", what: "runs the store simulator" },
  { name: "SHOPIFY_ADMIN_BASE_URL", on: () => true, what: "sends every shop's Admin API calls elsewhere" },
  { name: "WEBHOOKS_ALLOW_PRIVATE", on: (v) => v === "1", what: "lets shops post to private addresses" },
];

/**
 * Why production cannot start with this environment, one sentence per
 * problem; empty when it can. Tests (NODE_ENV=test) are exempt: they run the
 * app with test credentials against local fakes.
 */
export function productionProblems(env: Env): string[] {
  if (resolveAppMode(env) !== "production" || env.NODE_ENV === "test") return [];
  const problems: string[] = [];
  const missing = PRODUCTION_REQUIRED.filter((name) => !set(env[name]));
  if (missing.length) problems.push(`set ${missing.join(", ")} (production generates no secrets)`);
  for (const option of DEMO_ONLY) {
    const value = env[option.name];
    if (set(value) && option.on(value!)) problems.push(`unset ${option.name}: it ${option.what}, in the demo only`);
  }
  return problems;
}

/**
 * The one startup line that says which mode runs and what that means, so a
 * deployment's log shows at a glance that no demo part is on.
 */
export function modeLine(mode: AppMode, facts: { database: string; smtp: boolean; workers: string }): string {
  if (mode === "demo")
    return `mode: demo (generated secrets, demo shop, store simulator; ${facts.database}; set SHOPIFY_API_KEY for production)`;
  return [
    `mode: production (${facts.database}`,
    "no demo shop, no store simulator, Shopify URLs as Shopify's, private webhook targets refused",
    facts.smtp ? "e-mail over SMTP_URL" : "no e-mail sent: SMTP_URL unset",
    `workers ${facts.workers})`,
  ].join("; ");
}
