import type { ShopDb } from "../../db/shop-db.server";
import { stringify } from "csv-stringify/sync";
import type { AffiliateListQuery } from "./admin-schemas";
import { AFFILIATE_SUMMARY, affiliateWhere } from "./admin-affiliates.server";
import { safeCell } from "./csv-cells";
import { CSV_COLUMNS, EXPORT_ONLY_COLUMNS } from "./csv-format";

// CSV export of the shop's affiliates (the list's filters apply), streamed in
// pages of PAGE rows by keyset (newest first), so memory stays bounded
// whatever the number of affiliates. Cells are guarded against formulas.

const PAGE = 500;
export const EXPORT_HEADER = [...EXPORT_ONLY_COLUMNS, ...CSV_COLUMNS];

const select = {
  ...AFFILIATE_SUMMARY,
  campaign: { select: { name: true } },
  parent: { select: { referralCode: true } },
  coupons: { select: { code: true } },
} as const;

export function exportAffiliatesCsv(db: ShopDb, filter: Pick<AffiliateListQuery, "q" | "status" | "campaign">) {
  const shopId = db.$shopId;
  const where = affiliateWhere(shopId, filter);
  const encoder = new TextEncoder();
  let after: { createdAt: Date; id: string } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(stringify([EXPORT_HEADER])));
      }
      const rows = await db.affiliate.findMany({
        where: after
          ? {
              AND: [
                where,
                { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
              ],
            }
          : where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: PAGE,
        select,
      });
      if (rows.length) {
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.createdAt, id: last.id };
        const lines = rows.map((row) =>
          [
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
          ].map(safeCell),
        );
        controller.enqueue(encoder.encode(stringify(lines)));
      }
      if (rows.length < PAGE) controller.close();
    },
  });
}
