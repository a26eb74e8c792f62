// Prisma CLI configuration. The CLI runs with the JavaScript schema engine on
// a driver adapter, because the native engines cannot be downloaded offline.
// PRISMA_CONFIG_DATABASE_URL selects the database the CLI talks to (only
// `migrate diff --from-schema-datasource` and `migrate status` need one).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const url = process.env.PRISMA_CONFIG_DATABASE_URL ?? process.env.DATABASE_URL ?? "file:./data/app.sqlite";
const isPostgres = /^postgres(ql)?:\/\//.test(url);

// PostgreSQL's catalog answers some columns in its internal types `name` and
// `"char"`, which the pg driver adapter refuses ("Column type 'name' could not
// be deserialized"), so introspection (`prisma db pull`, which
// `npm run db:migrations` relies on) failed. Both are plain text: this pool
// reports them as text to the adapter.
const TEXT_OID = 25;
const CATALOG_TEXT_OIDS = new Set([18, 19]);
class CatalogTextPool extends pg.Pool {
  async query(...args: any[]): Promise<any> {
    const result = await (super.query as (...a: any[]) => Promise<any>)(...args);
    for (const field of result?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
    }
    return result;
  }
}

// The CLI is a short-lived process: without allowExitOnIdle, an idle pooled
// connection kept it alive for pg's 10-second idle timeout after it had
// printed its answer (every `db pull` and `migrate diff` on PostgreSQL took
// ~10 s longer than its work; migrations-merge.test.ts spent 111 s so).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  async adapter() {
    return isPostgres
      ? new PrismaPg(new CatalogTextPool({ connectionString: url, allowExitOnIdle: true }), {
          disposeExternalPool: true,
        })
      : new PrismaBetterSQLite3({ url: path.resolve(url.replace(/^file:/, "")) });
  },
});
