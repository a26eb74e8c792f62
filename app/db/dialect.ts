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

/** SQL written with `?` placeholders, numbered for PostgreSQL. */
export function bind(dialect: Dialect, sql: string) {
  if (dialect === "sqlite") return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
