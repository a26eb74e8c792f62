import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// Two copies of SQLite in one process corrupt a database: each keeps its own
// table of POSIX locks, and closing a file in one drops the other's locks
// (SQLite's "multiple copies of SQLite" hazard). The app opens SQLite
// directly (migrator, click and webhook writers) and through Prisma's
// adapter; both must load the very same better-sqlite3.
describe("better-sqlite3", () => {
  it("is one copy, shared with Prisma's driver adapter", () => {
    const ours = createRequire(__filename).resolve("better-sqlite3");
    const adapterRequire = createRequire(createRequire(__filename).resolve("@prisma/adapter-better-sqlite3"));
    expect(adapterRequire.resolve("better-sqlite3")).toBe(ours);
  });
});
