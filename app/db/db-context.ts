import { AsyncLocalStorage } from "node:async_hooks";

// What the database is being used for at this moment: a request (its method
// and path) or a job (its type). The driver adapters (client.server.ts) read
// it to find a GET that writes, and to charge SQLite's write lock to the job
// type that held it (write-lock-stats.ts).
//
// On globalThis: the server build and the start script load this module
// separately, and a request entered in one is read by the client of the other.

/**
 * Where a request's time went in the database, for the slow-request line
 * (server/request-log.ts): waiting for SQLite's write lock (statements and
 * BEGINs refused with SQLITE_BUSY and tried again), waiting for the
 * process's one transaction connection, and running statements.
 */
export interface DbWaits {
  queries: number;
  queryMs: number;
  lockWaitMs: number;
  lockTries: number;
  txQueueMs: number;
}

export const newDbWaits = (): DbWaits => ({ queries: 0, queryMs: 0, lockWaitMs: 0, lockTries: 0, txQueueMs: 0 });

export interface DbContext {
  request?: { method: string; path: string };
  /** The request's database time, when its server counts it (remix-handler.ts). */
  waits?: DbWaits;
  job?: string;
  /** Why this read may write (an install through Shopify's OAuth or token exchange). */
  writeOnRead?: string;
  /** A job's plan step: it reads before the job's write transaction, and writes nothing (job-queue.server.ts). */
  readStep?: boolean;
}

const holder = globalThis as unknown as { __dbContext?: AsyncLocalStorage<DbContext> };
const storage = (holder.__dbContext ??= new AsyncLocalStorage<DbContext>());

export function currentDbContext(): DbContext | undefined {
  return storage.getStore();
}

/** Runs a request's handling; statements it runs know the method and path (and count their time into `waits`). */
export function inRequest<T>(method: string, path: string, work: () => T, waits?: DbWaits): T {
  return storage.run({ request: { method, path }, waits }, work);
}

/** The current request's database time, if it is counted. */
export function currentWaits(): DbWaits | undefined {
  return storage.getStore()?.waits;
}

/**
 * A statement's run, counted into the request's database time when it
 * succeeds (a try refused for the lock is the lock wait's: sqlite-adapter.server.ts).
 */
export async function timeQuery<T>(waits: DbWaits, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await call();
  waits.queries++;
  waits.queryMs += performance.now() - start;
  return result;
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

/** Runs a job's plan step: its reads, before the job's write transaction. */
export function inReadStep<T>(work: () => T): T {
  return storage.run({ ...storage.getStore(), readStep: true }, work);
}

/** Whether what runs now only reads: a GET (that has not said why it writes) or a job's plan step. */
export function onlyReads(context: DbContext | undefined) {
  return isReadRequest(context) || context?.readStep === true;
}

export function isReadRequest(context: DbContext | undefined) {
  const method = context?.request?.method;
  return (method === "GET" || method === "HEAD") && !context?.writeOnRead;
}

/** A statement that changes data (what a GET must never run). */
export function isWriteStatement(sql: string) {
  return /^\s*(insert|update|delete|replace)\b/i.test(sql) || /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i.test(sql);
}
