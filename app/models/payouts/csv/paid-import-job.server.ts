import { createHash } from "node:crypto";
import type { Db } from "../../../db.server";
import { shopDb, type ShopDb } from "../../../db/shop-db.server";
import type { Tx } from "../../../db/transaction";
import { msg } from "../../../i18n/messages";
import { AppError } from "../../../lib/errors";
import type { ImportError } from "../../csv/csv-table";
import type { ImportReportLine } from "../../csv/import-job";
import { isFinished, runImportInChunks } from "../../csv/import-job.server";
import { enqueueJob } from "../../jobs/enqueue.server";
import { markPayoutsPaid } from "../settle-payout.server";
import { parsePaidCsv } from "./paid-csv-format";

// The paid-payouts CSV import as a job, the way the affiliates import runs:
// the upload refuses a file it cannot read (header, size) and stores the
// rest as a PaidPayoutImport, queueing "payouts.paid-import"; the dialog
// polls its progress and shows its report. The job takes the rows in chunks
// (csv/import-job.server.ts: each commits alone, none is applied twice) and
// decides each row against the payout as it is now:
// - paid: a payout being paid by hand (CSV or manual batch), marked paid with
//   the row's reference through markPayoutsPaid, whose compare-and-set on
//   "processing" lets only one writer pay it and emit its event;
// - alreadyPaid: the payout is paid with this reference (the same file
//   uploaded again, or a writer that won the race to the same outcome);
// - refused: the row's own problems, an unknown payout, one paid with another
//   reference, still pending, held by a sender, or changed meanwhile.
// Reasons are stored as translation keys with values.

export type StartPaidImportResult =
  { ok: true; importId: string; total: number } | { ok: false; errors: ImportError[] };

const CHUNK = 200;
// Payouts a file may settle: those sent by hand (exported, or in a manual batch).
const HAND_METHODS = new Set(["csv", "manual"]);

interface StoredRow {
  row: number;
  payoutId?: string;
  reference?: string;
  paidAt?: string | null;
  note?: string | null;
  errors?: ImportError[];
}

const reason = (key: string, values?: Record<string, string | number>) =>
  msg(`Payouts:paidImport.reasons.${key}`, values);

/**
 * Checks the file, stores its rows and queues the job. The same file
 * uploaded again while its import runs is that import (a double submit
 * starts nothing); once it has finished, a new import finds its payouts paid.
 */
export async function startPaidImport(
  db: ShopDb,
  text: string,
  actor: string,
  now = new Date(),
): Promise<StartPaidImportResult> {
  const parsed = parsePaidCsv(text, now);
  if (parsed.fileErrors.length) return { ok: false, errors: parsed.fileErrors };
  const byRow = new Map<number, StoredRow>();
  for (const r of parsed.rows)
    byRow.set(r.row, {
      row: r.row,
      payoutId: r.payoutId,
      reference: r.reference,
      paidAt: r.paidAt?.toISOString() ?? null,
      note: r.note,
    });
  for (const e of parsed.errors) {
    const stored = byRow.get(e.row) ?? { row: e.row };
    byRow.set(e.row, { row: e.row, errors: [...(stored.errors ?? []), e] });
  }
  const rows = [...byRow.values()].sort((a, b) => a.row - b.row);
  const fileHash = createHash("sha256").update(text).digest("hex");
  const record = await db.$transaction(async (tx) => {
    const running = await tx.paidPayoutImport.findFirst({
      where: { shopId: db.$shopId, fileHash, status: { in: ["queued", "running"] } },
      select: { id: true, total: true },
    });
    if (running) return running;
    const created = await tx.paidPayoutImport.create({
      data: { shopId: db.$shopId, actor, fileHash, rows: JSON.stringify(rows), total: rows.length },
      select: { id: true, total: true },
    });
    await enqueueJob(tx, "payouts.paid-import", { shopId: db.$shopId, importId: created.id });
    return created;
  });
  return { ok: true, importId: record.id, total: record.total };
}

/** What the dialog shows: progress, counts and the report (a GET reads only this). */
export async function paidImportStatus(db: ShopDb, importId: string) {
  const record = await db.paidPayoutImport.findFirst({
    where: { id: importId, shopId: db.$shopId },
    select: {
      id: true,
      status: true,
      total: true,
      processed: true,
      paid: true,
      alreadyPaid: true,
      refused: true,
      report: true,
      createdAt: true,
      finishedAt: true,
    },
  });
  if (!record) throw new AppError("not_found", msg("Payouts:paidImport.notFound"));
  return {
    ...record,
    status: record.status as "queued" | "running" | "done" | "failed",
    report: JSON.parse(record.report) as ImportReportLine[],
  };
}

type Counts = "paid" | "alreadyPaid" | "refused";

interface PayoutNow {
  id: string;
  status: string;
  method: string;
  reference: string | null;
}

/** Why a payout cannot be paid by this row, or null when it can; "alreadyPaid" when it is, with this reference. */
function verdict(
  p: PayoutNow | undefined,
  reference: string,
): { outcome: "refused" | "alreadyPaid"; message: string } | null {
  if (!p) return { outcome: "refused", message: reason("notFound") };
  if (p.status === "paid") {
    return p.reference === reference
      ? { outcome: "alreadyPaid", message: reason("alreadyPaid", { reference }) }
      : { outcome: "refused", message: reason("paidOtherReference", { reference: p.reference ?? "—" }) };
  }
  if (p.status === "pending") return { outcome: "refused", message: reason("stillPending") };
  if (p.status !== "processing") return { outcome: "refused", message: reason("status", { status: p.status }) };
  if (!HAND_METHODS.has(p.method)) return { outcome: "refused", message: reason("heldBySender", { method: p.method }) };
  return null;
}

const payoutsOf = async (tx: Tx, shopId: string, ids: string[]) =>
  new Map(
    (
      await tx.payout.findMany({
        where: { shopId, id: { in: ids } },
        select: { id: true, status: true, method: true, reference: true },
      })
    ).map((p) => [p.id, p]),
  );

async function applyChunk(
  tx: Tx,
  shopId: string,
  actor: string,
  part: StoredRow[],
  beforeMark?: (tx: Tx) => Promise<void>,
) {
  const counts: Record<Counts, number> = { paid: 0, alreadyPaid: 0, refused: 0 };
  const report: ImportReportLine[] = [];
  const line = (row: number, outcome: Counts, message: string, column = "payout_id") => {
    counts[outcome]++;
    report.push({ row, outcome, column, message });
  };
  const ids = part.flatMap((r) => (r.payoutId && !r.errors ? [r.payoutId] : []));
  const found = await payoutsOf(tx, shopId, ids);
  const toPay: (StoredRow & { payoutId: string; reference: string })[] = [];
  for (const r of part) {
    if (r.errors || !r.payoutId || !r.reference) {
      counts.refused++;
      for (const e of r.errors ?? [])
        report.push({ row: r.row, outcome: "refused", column: e.column, message: e.message });
      continue;
    }
    const why = verdict(found.get(r.payoutId), r.reference);
    if (why) line(r.row, why.outcome, why.message);
    else toPay.push({ ...r, payoutId: r.payoutId, reference: r.reference });
  }
  await beforeMark?.(tx);
  const { paidIds } = await markPayoutsPaid(
    tx,
    shopId,
    toPay.map((r) => ({
      payoutId: r.payoutId,
      reference: r.reference,
      paidAt: r.paidAt ? new Date(r.paidAt) : undefined,
      note: r.note ?? null,
    })),
    { actor, by: "merchant" },
  );
  counts.paid += paidIds.length;
  // Rows another writer got to first: read again, say what they found.
  const won = new Set(paidIds);
  const lost = toPay.filter((r) => !won.has(r.payoutId));
  if (lost.length) {
    const now = await payoutsOf(
      tx,
      shopId,
      lost.map((r) => r.payoutId),
    );
    for (const r of lost) {
      const why = verdict(now.get(r.payoutId), r.reference);
      if (why) line(r.row, why.outcome, why.message);
      else line(r.row, "refused", reason("changedMeanwhile"));
    }
  }
  report.sort((a, b) => a.row - b.row);
  return { counts, report };
}

/**
 * The "payouts.paid-import" job: processes the import's rows from
 * `processed` on, one committed chunk at a time. Safe to run again.
 * `beforeMark` runs inside each chunk between its reads and its writes (tests
 * put a competing writer there).
 */
export async function runPaidImport(
  base: Db,
  payload: { shopId: string; importId: string },
  options: {
    chunkSize?: number;
    afterChunk?: () => void | Promise<void>;
    beforeMark?: (tx: Tx) => Promise<void>;
  } = {},
) {
  const db = shopDb(base, payload.shopId);
  const where = { id: payload.importId, shopId: payload.shopId };
  const record = await db.paidPayoutImport.findFirst({ where, select: { rows: true, status: true, actor: true } });
  if (!record || isFinished(record.status)) return;
  const rows = JSON.parse(record.rows) as StoredRow[];
  await runImportInChunks<StoredRow, Counts>(
    db,
    rows,
    {
      read: (tx) => tx.paidPayoutImport.findFirst({ where, select: { processed: true, report: true, status: true } }),
      advance: async (tx, from, data) =>
        (
          await tx.paidPayoutImport.updateMany({
            where: { ...where, processed: from },
            data: {
              processed: data.processed,
              paid: { increment: data.increments.paid },
              alreadyPaid: { increment: data.increments.alreadyPaid },
              refused: { increment: data.increments.refused },
              report: data.report,
              status: data.status,
              finishedAt: data.finishedAt,
            },
          })
        ).count,
    },
    (tx, part) => applyChunk(tx, payload.shopId, record.actor, part, options.beforeMark),
    { chunkSize: options.chunkSize ?? CHUNK, afterChunk: options.afterChunk },
  );
}

/** The job's last attempt failed: the import stops where it is, and the dialog says so. */
export async function failPaidImport(base: Db, payload: { shopId: string; importId: string }) {
  await shopDb(base, payload.shopId).paidPayoutImport.updateMany({
    where: { id: payload.importId, status: { in: ["queued", "running"] } },
    data: { status: "failed", finishedAt: new Date() },
  });
}
