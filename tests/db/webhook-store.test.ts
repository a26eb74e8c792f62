import { describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/db/database-url";
import { getDb } from "~/db.server";
import { WAL_AUTOCHECKPOINT_PAGES } from "~/db/sqlite-checkpointer.server";
import { createSqliteWebhookStore, DatabaseBusyError } from "~/db/webhook-store.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The SQLite webhook writer (a thread with its own connection): how its
// connection is set, and what it answers once the thread has ended.
applyTestEnv();
const database = useTestDatabase();

const hook = (webhookId: string) => ({
  shopDomain: "store-test.myshopify.com",
  topic: "orders/create",
  webhookId,
  apiVersion: "2026-07",
  rawBody: "{}",
});

function sqliteFile(): string | null {
  const target = parseDatabaseUrl(database.current().url);
  return target.provider === "sqlite" && target.file !== ":memory:" ? target.file : null;
}

const onPostgres = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "file:x").provider === "postgresql";

describe.skipIf(onPostgres)("the SQLite webhook writer", () => {
  it("leaves checkpoints to the file's helper thread, as every other connection does", async () => {
    const file = sqliteFile();
    if (!file) return;
    const store = createSqliteWebhookStore(file);
    try {
      // At SQLite's default (1,000 pages) a batch past it ran the checkpoint
      // itself, with the file's fsyncs, while its webhooks waited: intake
      // fell from ~2,450 to ~1,230 webhooks/s in the orders bench.
      expect(await store.settings()).toEqual({
        journalMode: "wal",
        synchronous: 1,
        walAutocheckpoint: WAL_AUTOCHECKPOINT_PAGES,
      });
      expect(await store.store(hook("settings-1"))).toBe("stored");
      expect(await getDb().webhookEvent.count({ where: { webhookId: "settings-1" } })).toBe(1);
    } finally {
      store.close();
    }
  });

  it("answers busy (a 503, delivered again) once its thread has ended, instead of never answering", async () => {
    const file = sqliteFile();
    if (!file) return;
    const store = createSqliteWebhookStore(file);
    expect(await store.store(hook("before-1"))).toBe("stored");
    store.close();
    // What was handed over as the thread ended, and what comes after.
    const outcomes = await Promise.all(
      ["during-1", "during-2"].map((id) =>
        Promise.race([
          store.store(hook(id)).then(
            (r) => r,
            (e: unknown) => e,
          ),
          new Promise((resolve) => setTimeout(() => resolve("no answer after 3 s"), 3000)),
        ]),
      ),
    );
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(DatabaseBusyError);
    expect(store.stopped()).toBe(true);
    await expect(store.store(hook("after-1"))).rejects.toBeInstanceOf(DatabaseBusyError);
  });
});
