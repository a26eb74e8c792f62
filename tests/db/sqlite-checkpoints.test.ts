import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { WAL_AUTOCHECKPOINT_PAGES } from "~/db/sqlite-checkpointer.server";
import { buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// SQLite's checkpoints (the WAL copied into the database file) run on a
// helper thread as soon as the app opens the file, not only once the first
// click arrives: a shop taking orders without clicks had none, and every
// commit past SQLite's default 1,000 pages checkpointed on the event loop of
// whoever committed (a web request, the job worker).
applyTestEnv();
const database = useTestDatabase();
const onPostgres = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "file:x").provider === "postgresql";

describe.skipIf(onPostgres)("SQLite checkpoints", () => {
  it("raises the app connection's own automatic checkpoint to the backstop", async () => {
    const [row] = await getDb().$queryRawUnsafe<{ wal_autocheckpoint: number | bigint }[]>("PRAGMA wal_autocheckpoint");
    expect(Number(row!.wal_autocheckpoint)).toBe(WAL_AUTOCHECKPOINT_PAGES);
  });

  it("copies what Prisma commits into the database file without a click, off the event loop", async () => {
    const target = parseDatabaseUrl(database.current().url);
    if (target.provider !== "sqlite") throw new Error("SQLite only");
    const shop = await buildShop();
    const before = statSync(target.file).size;
    // ~750 KB of rows: fewer WAL frames than SQLite's default automatic
    // checkpoint, so nothing but the helper copies them into the file.
    const note = "x".repeat(1_500);
    for (let i = 0; i < 5; i++)
      await getDb().domainEvent.createMany({
        data: Array.from({ length: 100 }, () => ({ shopId: shop.id, type: "affiliate.approved", data: note })),
      });
    let grown = 0;
    for (let waited = 0; waited < 3_000 && grown < 500_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      grown = statSync(target.file).size - before;
    }
    expect(grown).toBeGreaterThan(500_000);
  });
});
