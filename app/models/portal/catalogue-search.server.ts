import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import type { CatalogueItem, CatalogueKind, CataloguePage } from "./catalogue-item";

// The synced catalogue as the merchant's picker reads it (per-product and
// per-collection commission rules): searched by title on the server, a page
// at a time, so a shop with thousands of products sends the browser 20.

export const CATALOGUE_PICKER_PAGE = 20;

/**
 * One page of the shop's products or collections whose title contains `q`,
 * by title. Offset paging: the list is sorted by title, and a picker pages
 * forward from its own search only.
 */
export async function searchCatalogue(
  db: ShopDb,
  kind: CatalogueKind,
  q: string,
  offset: number,
  take = CATALOGUE_PICKER_PAGE,
): Promise<CataloguePage> {
  const title = q ? { title: containsText(q) } : {};
  const rows: CatalogueItem[] =
    kind === "product"
      ? await db.product.findMany({
          where: { shopId: db.$shopId, status: { not: "archived" }, ...title },
          orderBy: [{ title: "asc" }, { id: "asc" }],
          skip: offset,
          take: take + 1,
          select: { gid: true, title: true, imageUrl: true, price: true },
        })
      : (
          await db.collection.findMany({
            where: { shopId: db.$shopId, ...title },
            orderBy: [{ title: "asc" }, { id: "asc" }],
            skip: offset,
            take: take + 1,
            select: { gid: true, title: true, imageUrl: true },
          })
        ).map((c) => ({ ...c, price: null }));
  return { items: rows.slice(0, take), next: rows.length > take ? offset + take : null };
}

/** Titles, images and prices of the given GIDs that the catalogue holds, by GID. */
export async function catalogueItemsByGid(db: ShopDb, gids: string[]): Promise<Record<string, CatalogueItem>> {
  const wanted = [...new Set(gids)];
  if (wanted.length === 0) return {};
  const [products, collections] = await Promise.all([
    db.product.findMany({
      where: { shopId: db.$shopId, gid: { in: wanted } },
      select: { gid: true, title: true, imageUrl: true, price: true },
    }),
    db.collection.findMany({
      where: { shopId: db.$shopId, gid: { in: wanted } },
      select: { gid: true, title: true, imageUrl: true },
    }),
  ]);
  const out: Record<string, CatalogueItem> = {};
  for (const p of products) out[p.gid] = p;
  for (const c of collections) out[c.gid] = { ...c, price: null };
  return out;
}
