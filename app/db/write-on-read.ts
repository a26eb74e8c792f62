import { logText } from "../lib/log-text";
import { currentDbContext, isReadRequest, isWriteStatement } from "./db-context";

// A GET never writes (CONTRIBUTING, the brief): a write on a read path turns
// every page view into a contender for SQLite's one write lock, and a page
// that fails while the job worker writes. The driver adapters call this with
// every statement; a write during a GET or HEAD request is logged once per
// path and statement, and refused outright in tests (NODE_ENV=test), so a
// test that opens the page fails. Writes a GET must make are wrapped in
// writeOnRead (db-context.ts).

const reported = new Set<string>();

export class WriteOnReadError extends Error {
  constructor(detail: string) {
    super(`a GET request wrote to the database: ${detail}`);
    this.name = "WriteOnReadError";
  }
}

/** `strict` (tests): the write throws instead of only being logged. */
export function checkWriteOnRead(sql: string, strict: boolean) {
  const context = currentDbContext();
  if (!isReadRequest(context) || !isWriteStatement(sql)) return;
  const statement = sql.replace(/\s+/g, " ").trim().slice(0, 60);
  const detail = `${context!.request!.method} ${context!.request!.path}: ${statement}`;
  if (!reported.has(detail)) {
    if (reported.size < 1000) reported.add(detail);
    console.error(`[db] ${logText(detail)}… (a GET must not write)`);
  }
  if (strict) throw new WriteOnReadError(detail);
}
