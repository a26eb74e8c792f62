import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(__dirname, "app") };

// Four projects, all run by `npm test`:
// - unit: pure modules, no database, no server.
// - db:   real database (a fresh SQLite file per test file, or PostgreSQL
//         when TEST_DATABASE_URL is a postgres URL) and real HTTP against the
//         built app.
// - e2e:  the built app in a real Chromium (skipped, loudly, when no
//         Chromium is found; mandatory when CI=true).
// - scale: the built app as real processes (two instances, two workers) on
//         the local PostgreSQL (skipped, loudly, when none is reachable;
//         mandatory when CI=true).
export default defineConfig({
  resolve: { alias },
  test: {
    pool: "forks",
    // One file at a time by default: the scale file starts four processes.
    // `npm run test:unit`, `npm run test:db` and `npm run test:browser` (and
    // so `npm test` and CI) run their files on 2 workers: each db and e2e
    // file has its own database, server and free ports (the e2e files share
    // one Chromium, a browser context each), and one file at a time left a
    // core mostly idle (ADR 039, addenda).
    fileParallelism: false,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // One Chromium for the run; each file connects to it.
          globalSetup: ["tests/support/browser-server.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "scale",
          include: ["tests/scale/**/*.test.ts"],
          environment: "node",
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
