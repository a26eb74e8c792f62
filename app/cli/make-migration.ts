// Creates a migration for both providers from the change between the schema
// as of the last migration (a snapshot kept in that migration's folder) and
// the schema now. `prisma migrate dev` needs a shadow database and the
// downloaded schema engine; `migrate diff` between two datamodels needs
// neither, and works the same for SQLite and PostgreSQL.
//
// usage: npm run db:migrations -- <name>
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { offlinePrismaEnv, postgresSchemaPath, prismaBin, projectRoot, sqliteSchemaPath } from "./prisma-env";
import { toPostgresSchema } from "../db/schema-variants";
import { migrationsDir } from "../db/migrate.server";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migrations -- <name>");
  process.exit(2);
}

// The Prisma config opens a SQLite file under data/ (unused, but it must open).
mkdirSync(path.join(projectRoot, "data"), { recursive: true });
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const sqliteSchema = readFileSync(sqliteSchemaPath, "utf8");
writeFileSync(postgresSchemaPath, toPostgresSchema(sqliteSchema));

for (const provider of ["sqlite", "postgresql"] as const) {
  const dir = migrationsDir(provider);
  mkdirSync(dir, { recursive: true });
  const previous = readdirSync(dir)
    .filter((d) => existsSync(path.join(dir, d, "schema.prisma")))
    .sort()
    .at(-1);
  const target = provider === "sqlite" ? sqliteSchemaPath : postgresSchemaPath;
  const from = previous ? ["--from-schema-datamodel", path.join(dir, previous, "schema.prisma")] : ["--from-empty"];
  const sql = execFileSync(prismaBin, ["migrate", "diff", ...from, "--to-schema-datamodel", target, "--script"], {
    env: offlinePrismaEnv({
      DATABASE_URL: "file:./unused.sqlite",
      PRISMA_CONFIG_DATABASE_URL:
        provider === "sqlite"
          ? "file:./data/unused.sqlite"
          : (process.env.MIGRATIONS_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres"),
    }),
    cwd: projectRoot,
    timeout: 120_000,
    stdio: ["ignore", "pipe", "inherit"],
  }).toString();
  if (/^-- This is an empty migration\.\s*$/m.test(sql.trim()) || sql.trim() === "") {
    console.log(`${provider}: no changes`);
    continue;
  }
  const out = path.join(dir, `${stamp}_${name}`);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "migration.sql"), sql);
  writeFileSync(path.join(out, "schema.prisma"), readFileSync(target, "utf8"));
  writeFileSync(path.join(dir, "migration_lock.toml"), `provider = "${provider}"\n`);
  console.log(`${provider}: wrote ${path.relative(projectRoot, out)}`);
}
