import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { chunks } from "../../lib/chunks";
import { AppError } from "../../lib/errors";
import { safeCell } from "../csv/csv-cells";
import { dollars, necReport, necThreshold, type NecRow } from "./nec-1099";
import { openTins } from "./tax-form-store.server";

// The 1099-NEC summary and CSV of a calendar year (the pure rules are in
// nec-1099.ts): the shop's US payees (a current W-9) and their payouts paid
// that year (UTC). The summary shows each TIN masked; the CSV, for the
// merchant's e-filing service, carries it in full and is an admin's download.

export interface NecPayeeInfo {
  affiliateId: string;
  email: string;
  formId: string;
  shopId: string;
  tinSealed: string;
  tinType: string;
  tinLast4: string;
  fields: Record<string, string>;
}

export async function necYear(db: ShopDb, year: number) {
  const threshold = necThreshold(year);
  if (!threshold.known) {
    return { year, threshold: null, latestKnownYear: threshold.latestKnownYear, rows: [] as NecRow<NecPayeeInfo>[] };
  }
  const forms = await db.taxForm.findMany({
    where: { shopId: db.$shopId, kind: "w9", currentKey: { not: null } },
    select: {
      id: true,
      shopId: true,
      affiliateId: true,
      fields: true,
      tinSealed: true,
      tinType: true,
      tinLast4: true,
      affiliate: { select: { email: true } },
    },
  });
  const from = new Date(Date.UTC(year, 0, 1));
  const to = new Date(Date.UTC(year + 1, 0, 1));
  const paid = new Map<string, { amount: number; currency: string; method: string; paidAt: Date }[]>();
  for (const part of chunks(
    forms.map((f) => f.affiliateId),
    500,
  )) {
    const rows = await db.payout.findMany({
      where: { shopId: db.$shopId, affiliateId: { in: part }, status: "paid", paidAt: { gte: from, lt: to } },
      select: { affiliateId: true, amount: true, currency: true, method: true, paidAt: true },
    });
    for (const r of rows) {
      const list = paid.get(r.affiliateId) ?? [];
      list.push({ amount: r.amount, currency: r.currency, method: r.method, paidAt: r.paidAt! });
      paid.set(r.affiliateId, list);
    }
  }
  const report = necReport(
    year,
    forms.map((f) => ({
      payee: {
        affiliateId: f.affiliateId,
        email: f.affiliate.email,
        formId: f.id,
        shopId: f.shopId,
        tinSealed: f.tinSealed,
        tinType: f.tinType,
        tinLast4: f.tinLast4,
        fields: JSON.parse(f.fields) as Record<string, string>,
      },
      payments: paid.get(f.affiliateId) ?? [],
    })),
  )!;
  return { year, threshold: report.threshold, latestKnownYear: null, rows: report.rows };
}

/** The columns most e-filing services (Track1099, Tax1099 and the like) map a 1099-NEC import from. */
export const NEC_CSV_COLUMNS = [
  "Recipient Name",
  "Recipient Business Name",
  "Recipient TIN Type",
  "Recipient TIN",
  "Address Line 1",
  "Address Line 2",
  "City",
  "State",
  "ZIP",
  "Country",
  "Email",
  "Account Number",
  "Box 1 Nonemployee Compensation",
  "Box 4 Federal Income Tax Withheld",
  "Tax Year",
] as const;

const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csvLine = (cells: (string | number)[]) => cells.map((c) => quote(safeCell(c))).join(",");

/** The reportable payees of the year as CSV (full TINs: the caller checks the admin role). */
export async function necCsv(db: ShopDb, year: number): Promise<string> {
  const report = await necYear(db, year);
  if (report.threshold === null) {
    throw new AppError("validation_failed", msg("Tax:nec.unknownYear", { year, latest: report.latestKnownYear ?? "" }));
  }
  const lines = [csvLine([...NEC_CSV_COLUMNS])];
  for (const row of report.rows.filter((r) => r.reportable)) {
    const p = row.payee;
    const tin = openTins({ id: p.formId, shopId: p.shopId, affiliateId: p.affiliateId, tinSealed: p.tinSealed }).tin;
    lines.push(
      csvLine([
        p.fields.name ?? "",
        p.fields.businessName ?? "",
        p.tinType.toUpperCase(),
        p.tinType === "ein"
          ? `${tin.slice(0, 2)}-${tin.slice(2)}`
          : `${tin.slice(0, 3)}-${tin.slice(3, 5)}-${tin.slice(5)}`,
        p.fields.address ?? "",
        "",
        p.fields.city ?? "",
        p.fields.state ?? "",
        p.fields.zip ?? "",
        "US",
        p.email,
        p.affiliateId,
        dollars(row.box1),
        "0.00",
        year,
      ]),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
