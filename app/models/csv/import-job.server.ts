import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import type { ImportReportLine } from "./import-job";

// What the CSV imports run as jobs share (affiliates, paid payouts): the
// stored rows are taken in chunks from `processed` on, each chunk in one
// short write transaction that applies it and moves `processed` on with a
// compare-and-set. A retried (or doubled) job resumes where the last commit
// ended: a chunk that another run committed first makes this run's
// compare-and-set miss, and its whole chunk rolls back, so no row is applied
// twice. Each import keeps its own table and counters; this loop reaches
// them through the small store below.

export const MAX_REPORTED = 500;

export type ImportState = "queued" | "running" | "done" | "failed";

export interface ChunkResult<C extends string> {
  counts: Record<C, number>;
  report: ImportReportLine[];
}

export interface ImportStore<C extends string> {
  /** The import's progress as this transaction sees it (null: it is gone). */
  read(tx: Tx): Promise<{ processed: number; status: string; report: string } | null>;
  /** The compare-and-set: moves `processed` from `from` on; the number of rows it updated. */
  advance(
    tx: Tx,
    from: number,
    data: {
      processed: number;
      increments: Record<C, number>;
      report: string;
      status: ImportState;
      finishedAt: Date | null;
    },
  ): Promise<number>;
}

export const isFinished = (status: string) => status === "done" || status === "failed";

/** Runs an import's rows from `processed` on, one committed chunk at a time. */
export async function runImportInChunks<R, C extends string>(
  db: Db,
  rows: R[],
  store: ImportStore<C>,
  apply: (tx: Tx, part: R[]) => Promise<ChunkResult<C>>,
  options: { chunkSize: number; afterChunk?: () => void | Promise<void> },
) {
  for (;;) {
    const finished = await db.$transaction(
      async (tx) => {
        const current = await store.read(tx);
        if (!current || isFinished(current.status)) return true;
        const from = current.processed;
        const part = rows.slice(from, from + options.chunkSize);
        const chunk = await apply(tx, part);
        const done = from + part.length >= rows.length;
        const moved = await store.advance(tx, from, {
          processed: from + part.length,
          increments: chunk.counts,
          report: appendReport(current.report, chunk.report),
          status: done ? "done" : "running",
          finishedAt: done ? new Date() : null,
        });
        if (moved !== 1) throw new Error("Another run processed this chunk first; this one rolls back.");
        return done;
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
    if (finished) return;
    await options.afterChunk?.();
  }
}

/** The stored report with a chunk's lines after it, the first MAX_REPORTED kept. */
export function appendReport(stored: string, lines: ImportReportLine[]) {
  const report = JSON.parse(stored) as ImportReportLine[];
  if (report.length >= MAX_REPORTED || !lines.length) return stored;
  return JSON.stringify([...report, ...lines].slice(0, MAX_REPORTED));
}
