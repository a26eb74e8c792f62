import { describe, expect, it } from "vitest";
import { modeLine, productionProblems, resolveAppMode } from "./app-mode";

const PRODUCTION = {
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://affiliates.example.com",
  SESSION_SECRET: "0123456789abcdef0123",
  PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  DATABASE_URL: "postgresql://app@db:5432/affiliates",
};

describe("resolveAppMode", () => {
  it.each([
    [{}, "demo"],
    [{ SHOPIFY_API_KEY: "" }, "demo"],
    [{ SHOPIFY_API_KEY: "  " }, "demo"],
    [{ SHOPIFY_API_KEY: "key" }, "production"],
    [{ SHOPIFY_API_KEY: "key", DEMO: "1" }, "demo"],
    [{ DEMO: "0" }, "production"],
    [{ DEMO: "yes" }, "demo"],
    [{ NODE_ENV: "production" }, "demo"],
  ])("%j is %s", (env, mode) => {
    expect(resolveAppMode(env)).toBe(mode);
  });
});

describe("productionProblems", () => {
  it("has none for a complete production environment, the demo, or tests", () => {
    expect(productionProblems(PRODUCTION)).toEqual([]);
    expect(productionProblems({})).toEqual([]);
    expect(productionProblems({ SHOPIFY_API_KEY: "key", NODE_ENV: "test" })).toEqual([]);
    expect(
      productionProblems({ ...PRODUCTION, SEED_DEMO: "0", STORE_SIMULATOR: "0", WEBHOOKS_ALLOW_PRIVATE: "0" }),
    ).toEqual([]);
  });

  it.each([
    ["SHOPIFY_API_SECRET", /set SHOPIFY_API_SECRET \(production generates no secrets\)/],
    ["SHOPIFY_APP_URL", /set SHOPIFY_APP_URL /],
    ["SESSION_SECRET", /set SESSION_SECRET /],
    ["PAYPAL_SECRET_KEY", /set PAYPAL_SECRET_KEY /],
    ["DATABASE_URL", /set DATABASE_URL /],
  ])("names a missing %s", (name, problem) => {
    const env: Record<string, string> = { ...PRODUCTION };
    delete env[name];
    expect(productionProblems(env)).toEqual([expect.stringMatching(problem)]);
  });

  it("names every missing variable in one sentence (DEMO=0 without anything)", () => {
    expect(productionProblems({ DEMO: "0" })).toEqual([
      "set SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_APP_URL, SESSION_SECRET, PAYPAL_SECRET_KEY, DATABASE_URL (production generates no secrets)",
    ]);
  });

  it.each([
    ["SEED_DEMO", "1", "seeds a demo shop"],
    ["STORE_SIMULATOR", "1", "runs the store simulator"],
    ["SHOPIFY_ADMIN_BASE_URL", "http://127.0.0.1:3001", "sends every shop's Admin API calls elsewhere"],
    ["WEBHOOKS_ALLOW_PRIVATE", "1", "lets shops post to private addresses"],
  ])("refuses the demo-only %s=%s", (name, value, what) => {
    expect(productionProblems({ ...PRODUCTION, [name]: value })).toEqual([
      `unset ${name}: it ${what}, in the demo only`,
    ]);
  });
});

describe("modeLine", () => {
  it("says what production leaves out, in one line", () => {
    const line = modeLine("production", { database: "PostgreSQL", smtp: false, workers: "external" });
    expect(line).not.toContain("\n");
    expect(line).toBe(
      "mode: production (PostgreSQL; no demo shop, no store simulator, Shopify URLs as Shopify's, private webhook targets refused; no e-mail sent: SMTP_URL unset; workers external)",
    );
    expect(modeLine("demo", { database: "SQLite", smtp: false, workers: "process" })).toMatch(/^mode: demo \(/);
  });
});
