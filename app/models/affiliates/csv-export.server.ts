import type { ShopDb } from "../../db/shop-db.server";
import type { AffiliateListQuery } from "./admin-schemas";
import { AFFILIATE_SUMMARY, affiliateWhere } from "./admin-affiliates.server";
import { keysetCsvStream } from "../csv/keyset-csv-stream.server";
import { CSV_COLUMNS, EXPORT_ONLY_COLUMNS } from "./csv-format";

// CSV export of the shop's affiliates (the list's filters apply), streamed in
// keyset pages (csv/keyset-csv-stream, newest first), so memory stays bounded
// whatever the number of affiliates. Cells are guarded against formulas.

export const EXPORT_HEADER = [...EXPORT_ONLY_COLUMNS, ...CSV_COLUMNS];

const select = {
  ...AFFILIATE_SUMMARY,
  campaign: { select: { name: true } },
  parent: { select: { referralCode: true } },
  coupons: { select: { code: true } },
} as const;

export function exportAffiliatesCsv(db: ShopDb, filter: Pick<AffiliateListQuery, "q" | "status" | "campaign">) {
  const where = affiliateWhere(db.$shopId, filter);
  return keysetCsvStream({
    header: EXPORT_HEADER,
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
    ],
  });
}
