import { getDb } from "../db.server";
import { shopDb, type ShopDb } from "../db/shop-db.server";
import { shopRowReads } from "../db/shop-row-reads.server";
import { isRead } from "./door.server";

/**
 * The shop's client a merchant or affiliate route gets. A read that declares
 * no write cannot change the shop's row, so its reads of that row are
 * answered from the one the door loaded (ADR 067).
 */
export function routeShopDb(
  request: Request,
  spec: { writeOnRead?: string },
  shop: Record<string, unknown> & { id: string },
): ShopDb {
  const db = shopDb(getDb(), shop.id);
  return isRead(request) && !spec.writeOnRead ? shopRowReads(db, shop) : db;
}
