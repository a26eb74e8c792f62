// Prisma CLI configuration. The CLI runs with the JavaScript schema engine on
// a driver adapter, because the native engines cannot be downloaded offline.
// PRISMA_CONFIG_DATABASE_URL selects the database the CLI talks to (only
// `migrate diff --from-schema-datasource` and `migrate status` need one).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.PRISMA_CONFIG_DATABASE_URL ?? process.env.DATABASE_URL ?? "file:./data/app.sqlite";
const isPostgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  async adapter() {
    return isPostgres
      ? new PrismaPg({ connectionString: url })
      : new PrismaBetterSQLite3({ url: path.resolve(url.replace(/^file:/, "")) });
  },
});
