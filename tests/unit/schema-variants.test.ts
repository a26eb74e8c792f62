import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { postgresSchemaPath, sqliteSchemaPath } from "~/cli/prisma-env";
import { toPostgresSchema } from "~/db/schema-variants";

describe("prisma/postgresql/schema.prisma", () => {
  it("is the SQLite schema with only the provider and client output changed", () => {
    const sqlite = readFileSync(sqliteSchemaPath, "utf8");
    const pg = readFileSync(postgresSchemaPath, "utf8");
    expect(pg).toBe(toPostgresSchema(sqlite));
    expect(pg).toContain('provider = "postgresql"');
    expect(pg).toContain('output          = "../../app/db/generated/postgresql"');
  });
});
