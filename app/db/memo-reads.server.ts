// A reader for one plan step (a batch of events being dispatched): each
// distinct read (model, method and arguments) runs once, and every caller
// gets its own copy of the answer. The events of one batch mostly share
// their shop, its templates and webhook endpoints, the affiliates of one
// MLM chain and their order, and each of their subscribers read those again
// per event: in the orders bench that was half of the dispatch's Prisma
// queries, and Prisma's query compiler costs about a millisecond per query
// under load, more than the statement itself.
//
// Nothing is lost by reading once: a plan reads outside any transaction, so
// two reads of one row could already see different commits, and the plan's
// write checks again whatever must hold (a key not yet taken). Only reads
// are remembered; everything else (raw statements, writes) goes through.

import { interceptMethods } from "./intercept-methods";
import { READ_OPERATIONS } from "./prisma-operations";

const READS = new Set<string>(READ_OPERATIONS);

type Cache = Map<string, Promise<unknown>>;

/** Each reader's remembered reads, for primeRead. */
const caches = new WeakMap<object, Cache>();

const readKey = (model: string, method: string, args: unknown) => `${model}.${method}:${JSON.stringify(args ?? null)}`;

/** The client, with each distinct model read run once for as long as the returned reader is used. */
export function memoReads<T extends object>(client: T): T {
  const cache: Cache = new Map();
  const delegates = new Map<string, unknown>();
  const reader = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value === "function") return (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof property !== "string" || property.startsWith("$") || value === null || typeof value !== "object")
        return value;
      let delegate = delegates.get(property);
      if (!delegate) delegates.set(property, (delegate = memoDelegate(property, value, cache)));
      return delegate;
    },
  });
  caches.set(reader, cache);
  return reader;
}

/**
 * Gives `reader` (a memoReads reader) the answer of a read before anyone
 * asks: a batch that knows which rows its events will read one at a time
 * reads them with one statement and primes each single read with its row
 * (null for one not found, as findFirst answers). The arguments must be the
 * very ones the single read will pass. No-op for any other client.
 */
export function primeRead(reader: object, model: string, method: string, args: unknown, answer: unknown): void {
  caches.get(reader)?.set(readKey(model, method, args), Promise.resolve(answer));
}

function memoDelegate(model: string, delegate: object, cache: Cache) {
  return interceptMethods(delegate, READS, (call, method) => (args?: unknown) => {
    let key: string;
    try {
      key = readKey(model, method, args);
    } catch {
      return call(args);
    }
    let answer = cache.get(key);
    if (!answer) {
      // Prisma's queries start when awaited: this starts it once.
      answer = Promise.resolve(call(args));
      cache.set(key, answer);
      // A failed read is not remembered: the next caller tries again.
      answer.catch(() => cache.delete(key));
    }
    return answer.then((rows) => structuredClone(rows));
  });
}
