import type { BulkSql } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import { EVENT_TYPE_NAMES, type DomainEvent, type DomainEventRecord, type EventType } from "./event-types";

// What a domain hands the event dispatcher (app/worker/dispatch-event.server.ts):
// a handler per event type it hears. A handler reads with `reader` outside
// any transaction and returns the rows to write (or nothing); the dispatcher
// writes them in one short transaction with the job's "done" mark.
// The write goes through bulk statements (BulkSql), not Prisma: on SQLite
// the worker writes a batch of events on its own connection, so the write
// lock is held for prepared statements only, never across Prisma's work per
// statement (ADR 035, addendum). The write checks again what must hold (a key
// not yet taken), as a replayed or concurrent dispatch may have written it.

export type EventWrite = (writer: BulkSql) => Promise<unknown>;
export type EventHandler<T extends EventType> = (
  reader: Tx,
  event: DomainEventRecord<T>,
) => Promise<EventWrite | undefined>;

/** Handlers by event type: each receives that type's payload, typed. */
export type EventSubscriber = { readonly [T in EventType]?: EventHandler<T> };

/**
 * A subscriber that hears every event with one handler (outgoing webhooks
 * publish them all); the handler narrows the event by its type.
 */
export function onEveryEvent(
  handler: (reader: Tx, event: DomainEvent) => Promise<EventWrite | undefined>,
): EventSubscriber {
  return Object.fromEntries(EVENT_TYPE_NAMES.map((type) => [type, handler]));
}
