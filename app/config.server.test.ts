import { afterEach, describe, expect, it } from "vitest";
import { getConfig, resetConfigForTests } from "./config.server";

// Settings are read from the environment once, checked, and given defaults here.
const saved = { ...process.env };
const base = { SESSION_SECRET: "s".repeat(32), SHOPIFY_API_KEY: "key", SHOPIFY_API_SECRET: "secret" };

function configWith(env: Record<string, string | undefined>) {
  for (const key of ["TRUST_PROXY", "DATA_DIR", "DATABASE_POOL_SIZE", "HELP_DOCS_URL"]) delete process.env[key];
  Object.assign(process.env, base, env);
  resetConfigForTests();
  return getConfig();
}

afterEach(() => {
  process.env = { ...saved };
  resetConfigForTests();
});

describe("configuration", () => {
  it("has defaults for the optional settings", () => {
    const config = configWith({});
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.DATABASE_POOL_SIZE).toBe(10);
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.HELP_DOCS_URL).toBeUndefined();
  });

  it("reads them from the environment", () => {
    const config = configWith({
      TRUST_PROXY: "1",
      DATABASE_POOL_SIZE: "25",
      DATA_DIR: "/srv/app",
      HELP_DOCS_URL: "https://docs.example/affiliates",
    });
    expect(config).toMatchObject({
      TRUST_PROXY: true,
      DATABASE_POOL_SIZE: 25,
      DATA_DIR: "/srv/app",
      HELP_DOCS_URL: "https://docs.example/affiliates",
    });
  });

  it.each([
    [{ TRUST_PROXY: "yes" }, /TRUST_PROXY must be 0 or 1/],
    [{ DATABASE_POOL_SIZE: "0" }, /DATABASE_POOL_SIZE/],
    [{ HELP_DOCS_URL: "docs" }, /HELP_DOCS_URL/],
  ])("refuses %j at start-up with the setting's name", (env, message) => {
    expect(() => configWith(env)).toThrow(message);
  });
});
