import { stringify } from "csv-stringify/sync";
import type { ShopDb } from "../../../db/shop-db.server";
import { chunks } from "../../../lib/chunks";
import { msg } from "../../../i18n/messages";
import { AppError } from "../../../lib/errors";
import { createPayoutBatch, PAY_TRANSACTION } from "../create-payout-batch.server";
import { convertedSelect, convertedView } from "../converted-view";
import { paymentSettingsOf } from "../payment-settings";
import { MAX_EXPORT_PAYOUTS, type PayoutCsvFormat } from "./payout-csv-columns";
import { payoutCsvFileName, payoutCsvTable, type ExportPayout } from "./payout-csv-format";

// Paying by hand with a file: exporting selected pending payouts puts them in
// a "csv" batch (processing, so they cannot be paid twice, by another batch
// or another export), and the file is written from that batch. The batch's
// file can be downloaded again in any format; the merchant pays with it at
// PayPal or Wise, then imports the plain file with references to mark the
// payouts paid (import-paid-csv.server.ts).

const IN_CHUNK = 500;
export const PAYOUT_NOTE = "Affiliate commission payout";

/** Puts the selected pending payouts into a new CSV batch; the file is then read from the batch. */
export async function startCsvPayment(
  db: ShopDb,
  input: { payoutIds: string[]; format: PayoutCsvFormat; createdBy: string },
): Promise<{ batchId: string }> {
  if (input.payoutIds.length > MAX_EXPORT_PAYOUTS)
    throw new AppError("validation_failed", msg("Payouts:csv.errors.tooMany", { max: MAX_EXPORT_PAYOUTS }));
  return db.$transaction(async (tx) => {
    if (input.format === "paypal") {
      // PayPal's file takes one currency: refuse before anything changes.
      // The currency each one is sent in: the affiliate's where it will be converted (ADR 052).
      const shop = await tx.shop.findUniqueOrThrow({
        where: { id: db.$shopId },
        select: { currency: true, settings: true },
      });
      const allowed: readonly string[] = paymentSettingsOf(shop.settings).payoutCurrencies;
      const currencies = new Set<string>();
      for (const part of chunks([...new Set(input.payoutIds)], IN_CHUNK)) {
        const rows = await tx.payout.findMany({
          where: { shopId: db.$shopId, id: { in: part } },
          select: { currency: true, affiliate: { select: { payoutCurrency: true } } },
        });
        for (const r of rows) {
          const wanted = r.affiliate.payoutCurrency;
          currencies.add(r.currency === shop.currency && wanted && allowed.includes(wanted) ? wanted : r.currency);
        }
      }
      if (currencies.size > 1)
        throw new AppError(
          "validation_failed",
          msg("Payouts:csv.errors.oneCurrency", { currencies: [...currencies].sort().join(", ") }),
        );
    }
    return createPayoutBatch(tx, db.$shopId, {
      payoutIds: input.payoutIds,
      method: "csv",
      createdBy: input.createdBy,
    });
  }, PAY_TRANSACTION);
}

/** The file of a CSV batch in a format: its name and text. */
export async function payoutBatchCsv(db: ShopDb, batchId: string, format: PayoutCsvFormat, day: string) {
  const batch = await db.payoutBatch.findFirst({
    where: { id: batchId, shopId: db.$shopId, method: "csv" },
    select: { id: true },
  });
  if (!batch) throw new AppError("not_found", msg("Payouts:csv.errors.batchNotFound"));
  const rows = await db.payout.findMany({
    where: { shopId: db.$shopId, batchId: batch.id },
    orderBy: [{ currency: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      amount: true,
      currency: true,
      createdAt: true,
      ...convertedSelect,
      affiliate: { select: { email: true, paypalEmail: true, firstName: true, lastName: true } },
    },
  });
  const payouts: ExportPayout[] = rows.map((p) => ({ ...p, converted: convertedView(p) }));
  return {
    fileName: payoutCsvFileName(
      format,
      payouts.map((p) => ({ currency: p.converted?.currency ?? p.currency })),
      day,
    ),
    text: stringify(payoutCsvTable(format, payouts, { note: PAYOUT_NOTE })),
    count: payouts.length,
  };
}
