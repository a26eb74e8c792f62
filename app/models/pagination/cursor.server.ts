import { AppError } from "../../lib/errors";
import { ID_PATTERN } from "../../lib/ids";

// Keyset pagination for every list: newest first (createdAt desc, id desc),
// the cursor is base64url JSON of the last row's {createdAt, id}. A cursor
// names a position, not an offset, so rows inserted meanwhile never shift a
// page (they sort before it) and ties on createdAt are broken by id.

/** A page of a list as the REST API returns it. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

interface Position {
  createdAt: Date;
  id: string;
}

export const pageOrder = [{ createdAt: "desc" as const }, { id: "desc" as const }];

export function encodeCursor(row: Position): string {
  return Buffer.from(JSON.stringify({ t: row.createdAt.toISOString(), i: row.id })).toString("base64url");
}

export function decodeCursor(cursor: string): Position {
  const invalid = () =>
    new AppError("validation_failed", "Some query parameters are not valid.", {
      fields: { cursor: "Not a valid cursor" },
    });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const { t, i } = (value ?? {}) as { t?: unknown; i?: unknown };
  if (typeof t !== "string" || typeof i !== "string" || !ID_PATTERN.test(i)) throw invalid();
  const createdAt = new Date(t);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== t) throw invalid();
  return { createdAt, id: i };
}

/** The where clause of the rows after the cursor (none without one). */
export function afterCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}

/** Rows were fetched with take: limit + 1; the extra row only says "there is more". */
export function toPage<R extends Position, T>(rows: R[], limit: number, serialize: (row: R) => T): Page<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page.map(serialize), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** A createdAt/placedAt range filter from since (inclusive) / until (exclusive). */
export function dateRange(since: Date | undefined, until: Date | undefined) {
  if (!since && !until) return undefined;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}
