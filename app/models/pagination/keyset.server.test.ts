import { describe, expect, it } from "vitest";
import { encodeCursor } from "./cursor.server";
import { keysetPage, keysetQuery } from "./keyset.server";

// Rows newest first; equal dates are ordered by id, as the database does.
const rows = Array.from({ length: 7 }, (_, i) => ({
  id: `r${9 - i}`,
  at: new Date(Date.UTC(2025, 0, 10 - Math.floor(i / 2))),
}));
const cursorOf = (row: { id: string; at: Date }) => encodeCursor({ createdAt: row.at, id: row.id });

/** What the database would answer to keysetQuery, over `rows`. */
function fetch(request: { after?: string; before?: string; limit: number }) {
  const q = keysetQuery("placedAt", request);
  const pos = request.after ?? request.before;
  const ordered = q.backwards ? [...rows].reverse() : rows;
  const key = pos ? rows.find((r) => cursorOf(r) === pos)! : null;
  const cmp = (r: { id: string; at: Date }) => r.at.getTime() - key!.at.getTime() || r.id.localeCompare(key!.id);
  const kept = key ? ordered.filter((r) => (q.backwards ? cmp(r) > 0 : cmp(r) < 0)) : ordered;
  return keysetPage("placedAt", request, kept.slice(0, q.take), (r) => r.at);
}

describe("keyset pages", () => {
  it("asks for one row more than a page, newest first, bounded at the cursor", () => {
    expect(keysetQuery("placedAt", { limit: 3 })).toMatchObject({ where: {}, take: 4, backwards: false });
    const after = keysetQuery("placedAt", { after: cursorOf(rows[2]!), limit: 3 });
    expect(after.orderBy).toEqual([{ placedAt: "desc" }, { id: "desc" }]);
    expect(after.where).toMatchObject({ placedAt: { lte: rows[2]!.at } });
    const before = keysetQuery("placedAt", { before: cursorOf(rows[2]!), limit: 3 });
    expect(before.orderBy).toEqual([{ placedAt: "asc" }, { id: "asc" }]);
    expect(before.where).toMatchObject({ placedAt: { gte: rows[2]!.at } });
  });

  it("walks forwards and back over ties without losing or repeating a row", () => {
    const first = fetch({ limit: 3 });
    expect(first.rows.map((r) => r.id)).toEqual(["r9", "r8", "r7"]);
    expect(first.before).toBeNull();
    const second = fetch({ after: first.after!, limit: 3 });
    expect(second.rows.map((r) => r.id)).toEqual(["r6", "r5", "r4"]);
    const third = fetch({ after: second.after!, limit: 3 });
    expect(third.rows.map((r) => r.id)).toEqual(["r3"]);
    expect(third.after).toBeNull();
    const back = fetch({ before: third.before!, limit: 3 });
    expect(back.rows.map((r) => r.id)).toEqual(["r6", "r5", "r4"]);
    const start = fetch({ before: back.before!, limit: 3 });
    expect(start.rows.map((r) => r.id)).toEqual(["r9", "r8", "r7"]);
    expect(start.before).toBeNull();
  });

  it("refuses a cursor that does not decode", () => {
    expect(() => keysetQuery("createdAt", { after: "bm9wZQ", limit: 3 })).toThrow(
      "Some query parameters are not valid.",
    );
  });

  it("walks oldest first when asked, forwards and back", () => {
    const oldest = [...rows].reverse();
    const fetchAsc = (request: { after?: string; before?: string; limit: number }) => {
      const page = { ...request, order: "asc" as const };
      const q = keysetQuery("placedAt", page);
      const pos = request.after ?? request.before;
      const ordered = q.backwards ? rows : oldest;
      const key = pos ? rows.find((r) => cursorOf(r) === pos)! : null;
      const cmp = (r: { id: string; at: Date }) => r.at.getTime() - key!.at.getTime() || r.id.localeCompare(key!.id);
      const kept = key ? ordered.filter((r) => (q.backwards ? cmp(r) < 0 : cmp(r) > 0)) : ordered;
      return keysetPage("placedAt", page, kept.slice(0, q.take), (r) => r.at);
    };
    expect(keysetQuery("placedAt", { limit: 3, order: "asc" }).orderBy).toEqual([{ placedAt: "asc" }, { id: "asc" }]);
    const first = fetchAsc({ limit: 3 });
    expect(first.rows.map((r) => r.id)).toEqual(["r3", "r4", "r5"]);
    const second = fetchAsc({ after: first.after!, limit: 3 });
    expect(second.rows.map((r) => r.id)).toEqual(["r6", "r7", "r8"]);
    expect(keysetQuery("placedAt", { after: first.after!, limit: 3, order: "asc" }).where).toMatchObject({
      placedAt: { gte: rows[4]!.at },
    });
    const back = fetchAsc({ before: second.before!, limit: 3 });
    expect(back.rows.map((r) => r.id)).toEqual(["r3", "r4", "r5"]);
    expect(back.before).toBeNull();
  });
});
