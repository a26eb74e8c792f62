import path from "node:path";

export type DatabaseTarget =
  { provider: "sqlite"; file: string; url: string } | { provider: "postgresql"; url: string };

// DATABASE_URL decides the provider: a postgres(ql):// URL means PostgreSQL,
// anything else (file:..., or a bare path) is a SQLite file. Relative SQLite
// paths are taken from the working directory, the way Prisma reads them.
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(url)) return { provider: "postgresql", url };
  const raw = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (!raw) throw new Error("DATABASE_URL is empty");
  const file = raw === ":memory:" ? raw : path.resolve(raw);
  return { provider: "sqlite", file, url: `file:${file}` };
}
