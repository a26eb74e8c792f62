import { randomUUID } from "node:crypto";
import type { BulkSql, SqlValue } from "../../db/bulk-sql.server";
import { adminClientFor } from "./admin-client.server";
import { PRODUCT_COLLECTIONS } from "./admin-operations";

// Per-collection commission rules need to know which collections an order's
// products belong to; an order webhook does not say. The Admin API does
// (read_products), and the answers are kept per shop and product for a day.

const FRESH_MS = 24 * 60 * 60 * 1000;
// A nodes query of 10 products with up to 50 collections each stays well
// under the Admin API's cost limit of 1,000 per query.
const PRODUCTS_PER_QUERY = 10;

/** Collections by product GID, or null when the shop has no Admin API access (standalone). */
export type CollectionFetcher = (shopDomain: string, productGids: string[]) => Promise<Record<string, string[]> | null>;

export interface CollectionLookup {
  byProduct: Record<string, string[]>;
  // False when some products' collections could not be read at all.
  complete: boolean;
  // Fresh answers to store (upserted with the orders).
  rows: Record<string, SqlValue>[];
}

type Cached = { productGid: string; collectionGids: string; fetchedAt: Date | string };

export async function lookupProductCollections(
  bulk: BulkSql,
  shop: { id: string; domain: string },
  productGids: string[],
  fetcher: CollectionFetcher = fetchProductCollections,
  now = new Date(),
): Promise<CollectionLookup> {
  const byProduct: Record<string, string[]> = {};
  const cached = await bulk
    .from("ProductCollections")
    .findIn<Cached>(["productGid", "collectionGids", "fetchedAt"], { shopId: shop.id }, "productGid", productGids);
  const stale = new Set(productGids);
  for (const row of cached) {
    byProduct[row.productGid] = JSON.parse(row.collectionGids) as string[];
    if (now.getTime() - new Date(row.fetchedAt).getTime() < FRESH_MS) stale.delete(row.productGid);
  }
  if (stale.size === 0) return { byProduct, complete: true, rows: [] };
  const fetched = await fetcher(shop.domain, [...stale]);
  if (!fetched) return { byProduct, complete: productGids.every((gid) => gid in byProduct), rows: [] };
  const rows = [...stale].map((productGid) => {
    // A product the API does not know (deleted since) is in no collection.
    byProduct[productGid] = fetched[productGid] ?? [];
    return {
      id: randomUUID(),
      shopId: shop.id,
      productGid,
      collectionGids: JSON.stringify(byProduct[productGid]),
      fetchedAt: now,
    };
  });
  return { byProduct, complete: true, rows };
}

/** Reads product collections through the shop's offline session; null without one. */
export async function fetchProductCollections(
  shopDomain: string,
  productGids: string[],
): Promise<Record<string, string[]> | null> {
  const client = await adminClientFor(shopDomain);
  if (!client) return null;
  const out: Record<string, string[]> = {};
  for (let i = 0; i < productGids.length; i += PRODUCTS_PER_QUERY) {
    // A refusal or a long throttle is thrown, so the job is tried again
    // later rather than paying without the rules.
    const { data } = await client.run(PRODUCT_COLLECTIONS, { ids: productGids.slice(i, i + PRODUCTS_PER_QUERY) });
    for (const node of data.nodes) if (node?.id) out[node.id] = node.collections.nodes.map((c) => c.id);
  }
  return out;
}
