import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl } from "~/db/database-url";

// A provider-neutral description of a database's structure: tables, columns
// (type, nullability, default), indexes and foreign keys. Two databases with
// equal catalogs have the same schema.
export interface Catalog {
  tables: Record<string, { columns: string[]; indexes: string[]; foreignKeys: string[] }>;
}

const SKIP = new Set(["_prisma_migrations", "sqlite_sequence"]);

export async function describeDatabase(url: string): Promise<Catalog> {
  const target = parseDatabaseUrl(url);
  return target.provider === "sqlite" ? describeSqlite(target.file) : describePostgres(url);
}

function describeSqlite(file: string): Catalog {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]
    )
      .map((r) => r.name)
      .filter((t) => !SKIP.has(t));
    const catalog: Catalog = { tables: {} };
    for (const t of tables) {
      const columns = (
        db.pragma(`table_info("${t}")`) as {
          name: string;
          type: string;
          notnull: number;
          dflt_value: string | null;
          pk: number;
        }[]
      ).map((c) => `${c.name} ${c.type} ${c.notnull ? "NOT NULL" : "NULL"} default=${c.dflt_value ?? ""} pk=${c.pk}`);
      const indexes = (db.pragma(`index_list("${t}")`) as { name: string; unique: number; origin: string }[])
        .map((i) => {
          const cols = (db.pragma(`index_info("${i.name}")`) as { name: string }[]).map((c) => c.name).join(",");
          return `${i.name} unique=${i.unique} origin=${i.origin} (${cols})`;
        })
        .sort();
      const foreignKeys = (
        db.pragma(`foreign_key_list("${t}")`) as {
          table: string;
          from: string;
          to: string;
          on_update: string;
          on_delete: string;
        }[]
      )
        .map((f) => `${f.from} -> ${f.table}.${f.to} on update ${f.on_update} on delete ${f.on_delete}`)
        .sort();
      // Column order is not part of the schema (ALTER TABLE appends).
      catalog.tables[t] = { columns: columns.sort(), indexes, foreignKeys };
    }
    return catalog;
  } finally {
    db.close();
  }
}

async function describePostgres(url: string): Promise<Catalog> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const catalog: Catalog = { tables: {} };
    for (const { table_name: t } of tables) {
      if (SKIP.has(t)) continue;
      const { rows: cols } = await client.query(
        `SELECT column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
        [t],
      );
      const { rows: idx } = await client.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 ORDER BY indexname`,
        [t],
      );
      const { rows: fks } = await client.query<{ def: string }>(
        `SELECT conname || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint
         WHERE conrelid = ('"' || $1 || '"')::regclass AND contype IN ('f', 'p', 'u') ORDER BY conname`,
        [t],
      );
      catalog.tables[t] = {
        columns: cols
          .map(
            (c) =>
              `${c.column_name} ${c.data_type}/${c.udt_name} ${c.is_nullable === "YES" ? "NULL" : "NOT NULL"} default=${c.column_default ?? ""}`,
          )
          .sort(),
        indexes: idx.map((i) => i.indexdef.replace(/ ON [^ ]+\./, " ON ")),
        foreignKeys: fks.map((f) => f.def),
      };
    }
    return catalog;
  } finally {
    await client.end();
  }
}
