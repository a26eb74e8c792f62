// prisma/postgresql/schema.prisma is derived from prisma/schema.prisma; these
// are the only differences, kept in one place so a test can prove it.
const HEADER = "// GENERATED from prisma/schema.prisma by app/cli/prisma-generate.ts. Do not edit.\n";

export function toPostgresSchema(sqliteSchema: string): string {
  const out = sqliteSchema
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace('output          = "../app/db/generated/sqlite"', 'output          = "../../app/db/generated/postgresql"');
  if (out === sqliteSchema) throw new Error("schema-variants: sqlite schema has an unexpected shape");
  return HEADER + out;
}
