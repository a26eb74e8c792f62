import { decodeCursor, encodeCursor } from "./cursor.server";

// Keyset pages in both directions for the admin lists: newest first on a
// date column, ties broken by id, so a page is one index range scan however
// deep it is (no OFFSET over a million orders). `after` continues towards
// older rows, `before` goes back towards newer ones. The cursor format is the
// REST API's ({date, id} as base64url JSON).

export type KeysetField = "createdAt" | "placedAt";

/** Rows per page of the merchant admin's lists. */
export const ADMIN_PAGE_SIZE = 25;

export interface KeysetRequest {
  after?: string;
  before?: string;
  limit: number;
  /** "asc": oldest first (after continues towards newer rows). Default "desc". */
  order?: "asc" | "desc";
}

export interface KeysetPage<R> {
  rows: R[];
  // Cursors for the next (older) and previous (newer) pages; null when there is none.
  after: string | null;
  before: string | null;
}

/** where/orderBy/take for the page asked for. */
export function keysetQuery(field: KeysetField, page: KeysetRequest) {
  const backwards = !page.after && Boolean(page.before);
  const cursor = page.after ?? page.before;
  const position = cursor ? decodeCursor(cursor) : null;
  // Walking towards older rows: newest-first forwards, oldest-first backwards.
  const towardsOlder = backwards === (page.order === "asc");
  const op = towardsOlder ? "lt" : "gt";
  const direction = towardsOlder ? ("desc" as const) : ("asc" as const);
  // The bound on the date alone is implied by the OR; it is there so the
  // database can start its index range at the cursor instead of filtering
  // every newer row (deep pages would otherwise cost as much as an OFFSET).
  const where = position
    ? {
        [field]: { [`${op}e`]: position.createdAt },
        OR: [{ [field]: { [op]: position.createdAt } }, { [field]: position.createdAt, id: { [op]: position.id } }],
      }
    : {};
  return { where, orderBy: [{ [field]: direction }, { id: direction }], take: page.limit + 1, backwards };
}

/** Rows fetched with keysetQuery → the page in display order and its cursors. */
export function keysetPage<R extends { id: string }>(
  field: KeysetField,
  page: KeysetRequest,
  fetched: R[],
  dateOf: (row: R) => Date,
): KeysetPage<R> {
  const { backwards } = keysetQuery(field, page);
  const more = fetched.length > page.limit;
  const rows = fetched.slice(0, page.limit);
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const cursorOf = (row: R) => encodeCursor({ createdAt: dateOf(row), id: row.id });
  if (backwards) {
    return { rows, before: more && first ? cursorOf(first) : null, after: last ? cursorOf(last) : null };
  }
  return { rows, after: more && last ? cursorOf(last) : null, before: page.after && first ? cursorOf(first) : null };
}
