import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseDatabaseUrl } from "~/db/database-url";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// A request slower than SLOW_REQUEST_MS gets a "slow request" line on stderr
// saying where its database time went: statements run, waits for SQLite's
// write lock, waits for a transaction. The load bench reads these lines to
// explain its requests over 5 s (issue 26).
// The threshold is far above what a login costs on a machine busy with other
// test files (a login measured 650 ms there at 300): the quiet case must not
// depend on the machine's load, only on the lock held in the slow case.
applyTestEnv({ SLOW_REQUEST_MS: "1500" });
const database = useTestDatabase();
const server = useTestServer();
const onPostgres = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "file:x").provider === "postgresql";

let written: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  written = [];
});

function watchStderr() {
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    written.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stderr.write);
}

const slowLines = () =>
  written
    .join("")
    .split("\n")
    .filter((line) => line.includes('"msg":"slow request"'))
    .map((line) => JSON.parse(line) as Record<string, any>);

async function login(client: HttpClient, email: string, password: string) {
  return (await client.postForm("/login", { email, password })).status;
}

describe("the slow-request line", () => {
  it("is not written for a request faster than SLOW_REQUEST_MS", async () => {
    const shop = await buildShop();
    const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
    await buildUser(shop.id, { email });
    watchStderr();
    expect(await login(new HttpClient(server.url), email, TEST_PASSWORD)).toBe(302);
    await new Promise((r) => setTimeout(r, 20));
    expect(slowLines()).toEqual([]);
  });

  it.skipIf(onPostgres)("says how long a request waited for SQLite's write lock", async () => {
    const target = parseDatabaseUrl(database.current().url);
    if (target.provider !== "sqlite") throw new Error("SQLite only");
    const shop = await buildShop();
    const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
    await buildUser(shop.id, { email });
    // Another connection (as the job worker would) holds the write lock for
    // 1.8 s (past SLOW_REQUEST_MS, within the 4 s a request waits for it)
    // while the login's rate limit and session are written.
    const other = new Database(target.file);
    other.exec("BEGIN IMMEDIATE");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec("COMMIT");
        other.close();
        resolve();
      }, 1800),
    );
    watchStderr();
    const status = await login(new HttpClient(server.url), email, TEST_PASSWORD);
    await released;
    await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(302);
    const lines = slowLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "warn",
      method: "POST",
      route: "routes/login",
      status: 302,
      db: {
        queries: expect.any(Number),
        query_ms: expect.any(Number),
        lock_tries: expect.any(Number),
        transaction_queue_ms: expect.any(Number),
      },
    });
    const line = lines[0]!;
    expect(line.ms).toBeGreaterThanOrEqual(1500);
    expect(line.db.lock_wait_ms).toBeGreaterThanOrEqual(1000);
    expect(line.db.lock_wait_ms).toBeLessThanOrEqual(line.ms);
    expect(line.db.lock_tries).toBeGreaterThan(0);
    expect(line.db.queries).toBeGreaterThan(0);
  });
});
