import { stringify } from "csv-stringify/sync";
import { safeCell } from "./csv-cells";

// A CSV download streamed newest first in keyset pages (createdAt, id), so
// memory stays bounded however many rows a shop has and rows written while
// the file is read never shift a page. Cells are guarded against formulas.

const PAGE = 500;

type Keyed = { createdAt: Date; id: string };
/** The page condition to add to the caller's where: rows strictly after `after`. */
export type KeysetAfter = { OR: [{ createdAt: { lt: Date } }, { createdAt: Date; id: { lt: string } }] } | null;

export function keysetCsvStream<Row extends Keyed>(options: {
  header: string[];
  /** One page, newest first, ordered by [createdAt desc, id desc], `take` rows at most. */
  page: (after: KeysetAfter, take: number) => Promise<Row[]>;
  line: (row: Row) => (string | number | null | undefined)[];
}) {
  const encoder = new TextEncoder();
  let after: Keyed | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(stringify([options.header])));
      }
      const rows = await options.page(
        after
          ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
          : null,
        PAGE,
      );
      if (rows.length) {
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.createdAt, id: last.id };
        controller.enqueue(encoder.encode(stringify(rows.map((row) => options.line(row).map(safeCell)))));
      }
      if (rows.length < PAGE) controller.close();
    },
  });
}
