import type { ShopDb } from "../../db/shop-db.server";
import type { AffiliateListQuery } from "./admin-schemas";
import { AFFILIATE_SUMMARY, affiliateWhere } from "./admin-affiliates.server";
import { keysetCsvStream } from "../csv/keyset-csv-stream.server";
import { CSV_COLUMNS, EXPORT_ONLY_COLUMNS, SIGNUP_COLUMN_PREFIX } from "./csv-format";
import type { SignupField } from "../../lib/portal-content";
import { readSignupAnswers } from "../../lib/signup-fields";
import { answerCell } from "../portal/signup-fields.server";

function answerCells(fields: readonly SignupField[], stored: string): string[] {
  const answers = readSignupAnswers(stored);
  return fields.map((f) => answerCell(f, answers[f.id]));
}

// CSV export of the shop's affiliates (the list's filters apply), streamed in
// keyset pages (csv/keyset-csv-stream, newest first), so memory stays bounded
// whatever the number of affiliates. Cells are guarded against formulas.

export const EXPORT_HEADER = [...EXPORT_ONLY_COLUMNS, ...CSV_COLUMNS];

/** The column names of the sign-up fields' answers (a label used twice gets its field id). */
export function signupColumns(fields: readonly SignupField[]): string[] {
  const labels = fields.map((f) => f.label.trim());
  return fields.map(
    (f, i) =>
      `${SIGNUP_COLUMN_PREFIX}${labels.indexOf(labels[i]!) === i && labels[i] ? labels[i] : `${labels[i]} (${f.id})`}`,
  );
}

const select = {
  ...AFFILIATE_SUMMARY,
  campaign: { select: { name: true } },
  parent: { select: { referralCode: true } },
  coupons: { select: { code: true } },
  signupAnswers: true,
} as const;

export function exportAffiliatesCsv(
  db: ShopDb,
  filter: Pick<AffiliateListQuery, "q" | "status" | "campaign">,
  fields: readonly SignupField[] = [],
) {
  const where = affiliateWhere(db.$shopId, filter);
  return keysetCsvStream({
    header: [...EXPORT_HEADER, ...signupColumns(fields)],
    page: (after, take) =>
      db.affiliate.findMany({
        where: after ? { AND: [where, after] } : where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
        select,
      }),
    line: (row) => [
      row.id,
      row.createdAt.toISOString(),
      row.email,
      row.firstName,
      row.lastName,
      row.status,
      row.campaign.name,
      row.referralCode,
      row.coupons.map((c) => c.code).join(" "),
      row.parent?.referralCode ?? "",
      ...answerCells(fields, row.signupAnswers),
    ],
  });
}
