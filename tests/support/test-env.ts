import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";

// The environment every server-side test runs with. The Shopify key and
// secret are the ones Shopify's test helpers sign with.
export function applyTestEnv(extra: Record<string, string> = {}) {
  Object.assign(process.env, {
    NODE_ENV: "test",
    SESSION_SECRET: "test-session-secret-0123456789",
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: APP_URL,
    SUPPORT_EMAIL: "support@example.com",
    PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
    ...extra,
  });
}
