import { Prisma } from "./generated/sqlite";
import { interceptMethods } from "./intercept-methods";
import type { ShopDb } from "./shop-db.server";

// A read-only request's client whose reads of its own shop's row are answered
// from the row the door already loaded (with the session, or at the embedded
// launch), instead of a statement each. Model functions take a client and read
// the settings, currency or plan they need themselves; a list page did so four
// or five times per load (the payouts list: five of its nineteen statements),
// each a Prisma query compile of about a millisecond under load.
//
// Only for GET and HEAD without declared writes: nothing in the request can
// change the row, so the door's copy is what a read a moment later returns
// (reads outside a transaction could already see different commits). Only a
// unique look-up of the shop by its id, or a findFirst with no filter (the
// shop's client scopes it to the shop), selecting plain columns the row holds,
// is answered; anything else (relations, counts, another id, a transaction's
// reads) runs as before. Every caller gets its own copy.

type Row = Record<string, unknown>;

const ANSWERED = new Set(["findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow"]);
// A read without a select asks for every column: only a whole row answers it
// (the affiliate's door loads a few of the shop's columns).
const SHOP_COLUMNS = Prisma.dmmf.datamodel.models
  .find((m) => m.name === "Shop")!
  .fields.filter((f) => f.kind === "scalar" || f.kind === "enum")
  .map((f) => f.name);

/** The columns a read asks for when the row can answer it, else null. */
function columnsAnswered(args: unknown, shopId: string, row: Row, method: string): string[] | null {
  if (!ANSWERED.has(method)) return null;
  const { where, select, ...rest } = (args ?? {}) as Row;
  if (Object.keys(rest).length > 0) return null;
  const filter = (where ?? {}) as Row;
  const keys = Object.keys(filter);
  const byId = keys.length === 1 && keys[0] === "id" && filter.id === shopId;
  const unfiltered = keys.length === 0 && method.startsWith("findFirst");
  if (!byId && !unfiltered) return null;
  if (select === undefined) return SHOP_COLUMNS.every((column) => column in row) ? SHOP_COLUMNS : null;
  if (select === null || typeof select !== "object") return null;
  const columns: string[] = [];
  for (const [column, wanted] of Object.entries(select as Row)) {
    if (wanted === false) continue;
    if (wanted !== true || !(column in row)) return null;
    columns.push(column);
  }
  return columns.length > 0 ? columns : null;
}

/** The client, with reads of the shop's own row answered from `row`. */
export function shopRowReads(db: ShopDb, row: Row & { id: string }): ShopDb {
  if (row.id !== db.$shopId) throw new Error("The shop's row is not the client's shop.");
  let delegate: object | undefined;
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "shop" || value === null || typeof value !== "object") {
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return (delegate ??= shopDelegate(value, row));
    },
  });
}

function shopDelegate(delegate: object, row: Row & { id: string }) {
  return interceptMethods(delegate, ANSWERED, (call, method) => (args?: unknown) => {
    const columns = columnsAnswered(args, row.id, row, method);
    if (!columns) return call(args);
    const answer: Row = {};
    for (const column of columns) answer[column] = structuredClone(row[column]);
    return Promise.resolve(answer);
  });
}
