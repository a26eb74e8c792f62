import { AsyncLocalStorage } from "node:async_hooks";

// What the database is being used for at this moment: a request (its method
// and path) or a job (its type). The driver adapters (client.server.ts) read
// it to find a GET that writes, and to charge SQLite's write lock to the job
// type that held it (write-lock-stats.ts).
//
// On globalThis: the server build and the start script load this module
// separately, and a request entered in one is read by the client of the other.

export interface DbContext {
  request?: { method: string; path: string };
  job?: string;
  /** Why this read may write (an install through Shopify's OAuth or token exchange). */
  writeOnRead?: string;
}

const holder = globalThis as unknown as { __dbContext?: AsyncLocalStorage<DbContext> };
const storage = (holder.__dbContext ??= new AsyncLocalStorage<DbContext>());

export function currentDbContext(): DbContext | undefined {
  return storage.getStore();
}

/** Runs a request's handling; statements it runs know the method and path. */
export function inRequest<T>(method: string, path: string, work: () => T): T {
  return storage.run({ request: { method, path } }, work);
}

/** Runs a job's handler; the write lock it holds is charged to its type. */
export function inJob<T>(type: string, work: () => T): T {
  return storage.run({ ...storage.getStore(), job: type }, work);
}

/**
 * The few writes a GET must make, said out loud: installing a shop when
 * Shopify's OAuth callback or a session token exchange brings it (Shopify
 * decides those are GETs).
 */
export function writeOnRead<T>(reason: string, work: () => T): T {
  return storage.run({ ...storage.getStore(), writeOnRead: reason }, work);
}

export function isReadRequest(context: DbContext | undefined) {
  const method = context?.request?.method;
  return (method === "GET" || method === "HEAD") && !context?.writeOnRead;
}

/** A statement that changes data (what a GET must never run). */
export function isWriteStatement(sql: string) {
  return /^\s*(insert|update|delete|replace)\b/i.test(sql) || /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i.test(sql);
}
