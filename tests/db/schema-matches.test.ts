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

  it("renumber renewals two batches numbered alike before the key on (contract, number) is built", async () => {
    const fresh = await createDatabase();
    drops.push(fresh.drop);
    const all = readMigrations(fresh.db.provider);
    const at = all.findIndex((m) => m.name.endsWith("_renewal_number_unique"));
    expect(at).toBeGreaterThan(0);
    await migrate(fresh.db.url, all.slice(0, at));
    const order = (id: string, contract: string | null, n: number | null) =>
      `INSERT INTO "Order" (id, "shopId", "shopifyGid", name, currency, subtotal, total, "placedAt", "updatedAt", "subscriptionContractGid", "renewalNumber") VALUES ('${id}', 's1', 'gid://shopify/Order/${id}', '#${id}', 'USD', 100, 100, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, ${contract ? `'${contract}'` : "NULL"}, ${n ?? "NULL"})`;
    const statements = [
      `INSERT INTO "Shop" (id, domain, name, url, "adminEmail", "updatedAt") VALUES ('s1', 'renew.myshopify.com', 'R', 'https://r', 'a@b.c', CURRENT_TIMESTAMP)`,
      // c1: renewals 1, 2, 2 (the race), 3; c2: 1, 2 untouched; ordinary orders.
      order("o1", "c1", 1),
      order("o2", "c1", 2),
      order("o3", "c1", 2),
      order("o4", "c1", 3),
      order("o5", "c2", 1),
      order("o6", "c2", 2),
      order("o7", null, null),
      order("o8", null, null),
    ];
    const query = async (sql: string) => {
      if (fresh.db.provider === "sqlite") {
        const db = new Database(fresh.db.url.replace(/^file:/, ""));
        try {
          return (sql.startsWith("SELECT") ? db.prepare(sql).all() : (db.exec(sql), [])) as Record<string, unknown>[];
        } finally {
          db.close();
        }
      }
      const client = new pg.Client({ connectionString: fresh.db.url });
      await client.connect();
      try {
        return (await client.query(sql)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    };
    for (const sql of statements) await query(sql);
    await migrate(fresh.db.url);
    const rows = await query(`SELECT id, "renewalNumber" AS n FROM "Order" ORDER BY id`);
    expect(rows.map((r) => [r.id, r.n === null ? null : Number(r.n)])).toEqual([
      ["o1", 1],
      ["o2", 2],
      ["o3", 3],
      ["o4", 4],
      ["o5", 1],
      ["o6", 2],
      ["o7", null],
      ["o8", null],
    ]);
    await expect(query(order("o9", "c2", 2))).rejects.toThrow(/unique/i);
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
