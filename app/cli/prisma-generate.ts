// Generates the PostgreSQL copy of the schema and a Prisma client for each
// provider. A client generated for one provider refuses the other's driver
// adapter, so the app carries both and picks one from DATABASE_URL.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { offlinePrismaEnv, postgresSchemaPath, prismaBin, projectRoot, sqliteSchemaPath } from "./prisma-env";
import { toPostgresSchema } from "../db/schema-variants";
import { patchFluentFieldMap } from "./prisma-runtime-patch";

mkdirSync(path.dirname(postgresSchemaPath), { recursive: true });
const sqlite = readFileSync(sqliteSchemaPath, "utf8");
const pg = toPostgresSchema(sqlite);
let current = "";
try {
  current = readFileSync(postgresSchemaPath, "utf8");
} catch {
  // first run
}
if (current !== pg) writeFileSync(postgresSchemaPath, pg);

for (const schema of [sqliteSchemaPath, postgresSchemaPath]) {
  execFileSync(prismaBin, ["generate", "--schema", schema], {
    env: offlinePrismaEnv({ DATABASE_URL: "file:./unused.sqlite" }),
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 120_000,
  });
}
// ADR 066: the runtime each client carries builds a field map per call.
for (const provider of ["sqlite", "postgresql"]) {
  const runtime = path.join(projectRoot, "app/db/generated", provider, "runtime/client.js");
  writeFileSync(runtime, patchFluentFieldMap(readFileSync(runtime, "utf8")));
}
console.log("prisma: clients generated for sqlite and postgresql");
