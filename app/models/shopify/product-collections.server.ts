import { randomUUID } from "node:crypto";
import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import type { BulkSql, SqlValue } from "../../db/bulk-sql.server";
import { shopify } from "../../shopify.server";

// Per-collection commission rules need to know which collections an order's
// products belong to; an order webhook does not say. The Admin API does
// (read_products), and the answers are kept per shop and product for a day.

const FRESH_MS = 24 * 60 * 60 * 1000;
// A nodes query of 10 products with up to 50 collections each stays well
// under the Admin API's cost limit of 1,000 per query.
const PRODUCTS_PER_QUERY = 10;

export const PRODUCT_COLLECTIONS_QUERY = `#graphql
  query ProductCollections($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Product {
        id
        collections(first: 50) {
          nodes {
            id
          }
        }
      }
    }
  }`;

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
  const cached = await bulk.findIn<Cached>(
    "ProductCollections",
    ["productGid", "collectionGids", "fetchedAt"],
    { shopId: shop.id },
    "productGid",
    productGids,
  );
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

interface NodesAnswer {
  data?: { nodes: ({ id: string; collections: { nodes: { id: string }[] } } | null)[] };
  errors?: unknown;
}

/** Reads product collections through the shop's offline session; null without one. */
export async function fetchProductCollections(
  shopDomain: string,
  productGids: string[],
): Promise<Record<string, string[]> | null> {
  let admin;
  try {
    ({ admin } = await shopify().unauthenticated.admin(shopDomain));
  } catch (error) {
    if (error instanceof SessionNotFoundError) return null;
    throw error;
  }
  const out: Record<string, string[]> = {};
  for (let i = 0; i < productGids.length; i += PRODUCTS_PER_QUERY) {
    const response = await admin.graphql(PRODUCT_COLLECTIONS_QUERY, {
      variables: { ids: productGids.slice(i, i + PRODUCTS_PER_QUERY) },
    });
    const answer = (await response.json()) as NodesAnswer;
    // Thrown, so the job is tried again later rather than paying without the rules.
    if (!answer.data || answer.errors)
      throw new Error(
        `the Admin API did not answer the product collections query: ${JSON.stringify(answer.errors ?? answer).slice(0, 300)}`,
      );
    for (const node of answer.data.nodes) if (node?.id) out[node.id] = node.collections.nodes.map((c) => c.id);
  }
  return out;
}
