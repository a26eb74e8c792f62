import type { Db } from "./client.server";
import type { Tx } from "./transaction";

// Raw SQL is written once with `?` placeholders for SQLite and PostgreSQL;
// these tell the two apart and number the placeholders for PostgreSQL.

export type Dialect = "sqlite" | "postgresql";

export function dialectOf(client: Db | Tx): Dialect {
  // Prisma keeps the generated client's provider here; transaction clients
  // forward it.
  return (client as unknown as { _activeProvider?: string })._activeProvider === "postgresql" ? "postgresql" : "sqlite";
}

/**
 * A date as raw SQL binds it for a DateTime column: the text each database
 * stores through Prisma's driver adapters (SQLite: ISO 8601 with "+00:00",
 * which compares as text; PostgreSQL: ISO 8601, cast to timestamp(3) in UTC).
 */
export function sqlDate(dialect: Dialect, value: Date): string {
  return dialect === "sqlite" ? value.toISOString().replace("Z", "+00:00") : value.toISOString();
}

/** SQL written with `?` placeholders, numbered for PostgreSQL. */
export function bind(dialect: Dialect, sql: string) {
  if (dialect === "sqlite") return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
