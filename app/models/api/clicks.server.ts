import type { ShopDb } from "../../db/shop-db.server";
import { afterCursor, dateRange, pageOrder, toPage } from "../pagination/cursor.server";
import type { ClickListQuery } from "./schemas";
import { serializeClick } from "./serializers";

// Link clicks of the shop, newest first; filters by affiliate and time.
export async function listClicks(db: ShopDb, query: ClickListQuery) {
  const shopId = db.$shopId;
  const createdAt = dateRange(query.since, query.until);
  const rows = await db.click.findMany({
    where: {
      shopId,
      ...(query.affiliate_id ? { affiliateId: query.affiliate_id } : {}),
      ...(createdAt ? { createdAt } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, serializeClick);
}
