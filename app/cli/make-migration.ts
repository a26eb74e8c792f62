// Creates a migration for both providers from the change between the
// database the existing migrations build and prisma/schema.prisma (see
// migration-maker.ts). PostgreSQL's scratch database is made on
// MIGRATIONS_PG_URL (default: the local server).
//
// usage: npm run db:migrations -- <name>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrationsDir } from "../db/migrate.server";
import { toPostgresSchema } from "../db/schema-variants";
import { DEFAULT_POSTGRES_URL, makeMigration } from "./migration-maker";
import { postgresSchemaPath, projectRoot, sqliteSchemaPath } from "./prisma-env";

async function main() {
  const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
  if (!name) {
    console.error("usage: npm run db:migrations -- <name>");
    process.exit(2);
  }
  // The Prisma config opens a SQLite file under data/ (unused, but it must open).
  mkdirSync(path.join(projectRoot, "data"), { recursive: true });
  const sqliteSchema = readFileSync(sqliteSchemaPath, "utf8");
  writeFileSync(postgresSchemaPath, toPostgresSchema(sqliteSchema));
  const results = await makeMigration({
    name,
    sqliteSchema,
    migrationsDirs: { sqlite: migrationsDir("sqlite"), postgresql: migrationsDir("postgresql") },
    postgresUrl: process.env.MIGRATIONS_PG_URL ?? DEFAULT_POSTGRES_URL,
  });
  for (const { provider, dir } of results) {
    console.log(dir ? `${provider}: wrote ${path.relative(projectRoot, dir)}` : `${provider}: no changes`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
