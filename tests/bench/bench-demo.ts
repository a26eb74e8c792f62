// The demo shop's logins in the pages benchmark (bench-servers.ts seeds them).
export const DEMO_PASSWORD = "bench demo password 123";
export const DEMO_AFFILIATE_EMAIL = "bench-affiliate@demo.example";

/**
 * The environment of an app process a benchmark starts: production mode on
 * the given database, with fixed secrets (no secrets file).
 */
export function benchAppEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: "bench-session-secret-0123456789",
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: "bench-api-secret",
    SHOPIFY_APP_URL: "http://127.0.0.1:3000",
    PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
    ...extra,
  };
}
