import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { offlinePrismaEnv, postgresSchemaPath, prismaBin, projectRoot, sqliteSchemaPath } from "~/cli/prisma-env";
import { parseDatabaseUrl } from "~/db/database-url";
import { migrate, readMigrations } from "~/db/migrate.server";
import { createDatabase, useTestDatabase } from "../support/test-db";
import { describeDatabase } from "../support/schema-catalog";
import { applyTestEnv } from "../support/test-env";

// Proves that the SQL migrations, applied by the app's own migrator, build
// exactly the database Prisma's engine derives from prisma/schema.prisma:
// database A is migrated; database B is created from `prisma migrate diff
// --from-empty --to-schema-datamodel` (the schema as it is now); their
// catalogs must be equal. Runs on SQLite, or on PostgreSQL when
// TEST_DATABASE_URL is a postgres URL.
applyTestEnv();
const testDb = useTestDatabase();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

function schemaSql(provider: "sqlite" | "postgresql", url: string): string {
  return execFileSync(
    prismaBin,
    [
      "migrate",
      "diff",
      "--from-empty",
      "--to-schema-datamodel",
      provider === "sqlite" ? sqliteSchemaPath : postgresSchemaPath,
      "--script",
    ],
    {
      cwd: projectRoot,
      env: offlinePrismaEnv({ PRISMA_CONFIG_DATABASE_URL: url }),
      timeout: 120_000,
      stdio: ["ignore", "pipe", "pipe"],
    },
  ).toString();
}

async function applySql(url: string, sql: string) {
  const target = parseDatabaseUrl(url);
  if (target.provider === "sqlite") {
    const db = new Database(target.file);
    db.exec(sql);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

describe("migrations", () => {
  it("build the database the Prisma schema describes", async () => {
    const migrated = testDb.current();
    const fromSchema = await createDatabase();
    drops.push(fromSchema.drop);
    await applySql(fromSchema.db.url, schemaSql(migrated.provider, fromSchema.db.url));
    const [a, b] = await Promise.all([describeDatabase(migrated.url), describeDatabase(fromSchema.db.url)]);
    expect(Object.keys(a.tables).length).toBeGreaterThan(10);
    expect(a).toEqual(b);
  });

  it("are recorded like Prisma records them and apply only once", async () => {
    const { url, provider } = testDb.current();
    const again = await migrate(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(readMigrations(provider).length);
  });

  it("keep every row when a later migration rebuilds a table", async () => {
    const fresh = await createDatabase();
    drops.push(fresh.drop);
    const all = readMigrations(fresh.db.provider);
    await migrate(fresh.db.url, all.slice(0, 1));
    // Data written under the first schema: a shop with a user, a campaign,
    // an affiliate and an order (all of which refer to the shop).
    const statements = [
      `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "updatedAt") VALUES ('s1', 'keep.myshopify.com', 'Keep', 'https://keep', 'a@b.c', CURRENT_TIMESTAMP)`,
      `INSERT INTO "User" (id, "shopId", role, email, name, "updatedAt") VALUES ('u1', 's1', 'admin', 'a@b.c', 'A', CURRENT_TIMESTAMP)`,
      `INSERT INTO "Campaign" (id, "shopId", name, "updatedAt") VALUES ('c1', 's1', 'C', CURRENT_TIMESTAMP)`,
      `INSERT INTO "Affiliate" (id, "shopId", "campaignId", email, "firstName", "lastName", "referralCode", "updatedAt") VALUES ('a1', 's1', 'c1', 'x@y.z', 'X', 'Y', 'XY', CURRENT_TIMESTAMP)`,
      `INSERT INTO "Order" (id, "shopId", "shopifyGid", name, currency, subtotal, total, "placedAt", "updatedAt", "affiliateId") VALUES ('o1', 's1', 'gid://shopify/Order/1', '#1', 'USD', 100, 100, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'a1')`,
    ];
    if (fresh.db.provider === "sqlite") {
      const db = new Database(fresh.db.url.replace(/^file:/, ""));
      for (const sql of statements) db.exec(sql);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: fresh.db.url });
      await client.connect();
      for (const sql of statements) await client.query(sql);
      await client.end();
    }
    const result = await migrate(fresh.db.url);
    expect(result.applied.length).toBe(all.length - 1);
    const count = async (table: string) => {
      if (fresh.db.provider === "sqlite") {
        const db = new Database(fresh.db.url.replace(/^file:/, ""));
        const n = (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
        db.close();
        return n;
      }
      const client = new pg.Client({ connectionString: fresh.db.url });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${table}"`);
      await client.end();
      return rows[0].n as number;
    };
    for (const table of ["Shop", "User", "Campaign", "Affiliate", "Order"]) expect(await count(table), table).toBe(1);
  });

  it("refuse to run when an applied migration was edited", async () => {
    const fresh = await createDatabase();
    drops.push(fresh.drop);
    await migrate(fresh.db.url);
    const first = readMigrations(fresh.db.provider)[0]!;
    if (fresh.db.provider === "sqlite") {
      const db = new Database(fresh.db.url.replace(/^file:/, ""));
      db.prepare(`UPDATE "_prisma_migrations" SET checksum = 'tampered' WHERE migration_name = ?`).run(first.name);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: fresh.db.url });
      await client.connect();
      await client.query(`UPDATE "_prisma_migrations" SET checksum = 'tampered' WHERE migration_name = $1`, [
        first.name,
      ]);
      await client.end();
    }
    await expect(migrate(fresh.db.url)).rejects.toThrow(/changed after it was applied/);
  });
});
