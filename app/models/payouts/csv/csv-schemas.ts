import { z } from "zod";
import { msg } from "../../../i18n/messages";
import { MAX_EXPORT_PAYOUTS, MAX_PAID_IMPORT_BYTES, PAYOUT_CSV_FORMATS } from "./payout-csv-columns";

// The CSV payment forms, one schema each, used by the screen and the routes.

const ID = /^[A-Za-z0-9_-]{1,64}$/;

const format = z.enum(PAYOUT_CSV_FORMATS, { errorMap: () => ({ message: msg("Payouts:csv.errors.format") }) });

/** POST /{role}/payouts/export: put the selected pending payouts into a CSV batch. */
export const csvExportSchema = z.object({
  format,
  ids: z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value),
    z
      .array(z.string().regex(ID, msg("Payouts:csv.errors.id")))
      .min(1, msg("Payouts:csv.errors.noneSelected"))
      .max(MAX_EXPORT_PAYOUTS, msg("Payouts:csv.errors.tooMany", { max: MAX_EXPORT_PAYOUTS })),
  ),
});

/** GET /{role}/payouts/export?batch=…&format=…: the batch's file. */
export const csvFileQuerySchema = z.object({
  batch: z.string().regex(ID, msg("Payouts:csv.errors.id")),
  format,
});

/** POST /{role}/payouts/import: the paid-payouts file. */
export const paidImportSchema = z.object({
  file: z
    .instanceof(File, { message: msg("Payouts:csv.errors.noFile") })
    .refine((file) => file.size <= MAX_PAID_IMPORT_BYTES, msg("Payouts:csv.errors.fileTooLarge")),
});
