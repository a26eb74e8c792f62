import type { ShopDb } from "../../../db/shop-db.server";
import { chunks } from "../../../lib/chunks";
import type { ImportError } from "../../csv/csv-table";
import { markPayoutsPaid } from "../settle-payout.server";
import { parsePaidCsv, type PaidRow } from "./paid-csv-format";

// Importing the paid-payouts CSV marks its payouts paid with the references
// the merchant filled in: all or nothing, as the affiliates import. The file's
// own rules first, then the shop's for every row with a few bulk reads (the
// payout exists, is being paid by CSV or by hand, or is already paid with the
// same reference: a file imported twice changes nothing the second time); if
// any row fails, nothing is written and every row's problems are reported.

export type PaidImportResult = { ok: true; paid: number; unchanged: number } | { ok: false; errors: ImportError[] };

const MAX_REPORTED = 500;
const IN_CHUNK = 500;
// Payouts a file may settle: those sent by hand (exported, or in a manual batch).
const HAND_METHODS = new Set(["csv", "manual"]);

async function check(db: ShopDb, rows: PaidRow[], errors: ImportError[]) {
  const found = new Map<string, { id: string; status: string; method: string; reference: string | null }>();
  for (const part of chunks(
    rows.map((r) => r.payoutId),
    IN_CHUNK,
  )) {
    const payouts = await db.payout.findMany({
      where: { shopId: db.$shopId, id: { in: part } },
      select: { id: true, status: true, method: true, reference: true },
    });
    for (const p of payouts) found.set(p.id, p);
  }
  const toPay: PaidRow[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const p = found.get(row.payoutId);
    const fail = (column: string, message: string) => errors.push({ row: row.row, column, message });
    if (!p) fail("payout_id", "No payout of this shop has this id");
    else if (p.status === "paid") {
      if (p.reference === row.reference) unchanged++;
      else fail("payout_id", `This payout is already paid (reference ${p.reference ?? "none"})`);
    } else if (p.status === "pending") fail("payout_id", "This payout is still pending: export it first");
    else if (p.status !== "processing") fail("payout_id", `This payout is ${p.status}`);
    else if (!HAND_METHODS.has(p.method)) fail("payout_id", `This payout is being paid by ${p.method}`);
    else toPay.push(row);
  }
  return { toPay, unchanged };
}

export async function importPaidPayoutsCsv(
  db: ShopDb,
  text: string,
  actor: string,
  now = new Date(),
): Promise<PaidImportResult> {
  const parsed = parsePaidCsv(text, now);
  const errors = [...parsed.errors];
  const { toPay, unchanged } = parsed.rows.length ? await check(db, parsed.rows, errors) : { toPay: [], unchanged: 0 };
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    return { ok: false, errors: errors.slice(0, MAX_REPORTED) };
  }
  // One transaction: a payout that changed meanwhile (paid or failed by
  // someone else) makes markPayoutsPaid refuse, and the whole file rolls back.
  await db.$transaction(
    (tx) =>
      markPayoutsPaid(
        tx,
        db.$shopId,
        toPay.map((row) => ({
          payoutId: row.payoutId,
          reference: row.reference,
          paidAt: row.paidAt ?? now,
          note: row.note,
        })),
        { actor, by: "merchant" },
      ),
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { ok: true, paid: toPay.length, unchanged };
}
