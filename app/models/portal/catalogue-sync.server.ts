import { getDb, type Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { enqueueJob, notifyJobsEnqueued } from "../jobs/enqueue.server";
import type { JobPayload } from "../jobs/job-payloads";
import { adminClientFor, AdminThrottledError, refillMs, type AdminClient } from "../shopify/admin-client.server";
import {
  CATALOGUE_PAGE,
  COLLECTIONS_PAGE,
  type CatalogueCollection,
  type CatalogueProduct,
} from "../shopify/admin-operations";
import { upsertCollections, upsertProducts } from "./product-catalogue.server";

// The portal's product catalogue is read from the Admin API once, at install
// (products/* webhooks keep it current afterwards). A shop may have many
// thousands of products: the sync reads pages of 100 in a durable job, keeps
// within Shopify's cost limits (it waits when the bucket runs low, and when
// a wait would be long it hands over to a later job at the same cursor), and
// upserts each page as it comes, so a crash loses at most a page. When the
// last page is in, products Shopify no longer has are removed.

export const CATALOGUE_SYNC_JOB = "catalogue.sync" as const;
export const CATALOGUE_PAGE_SIZE = 100;
// A job hands over to a fresh one after this long, so one sync never holds a worker for minutes.
const SLICE_MS = 20_000;
// Waits longer than this end the job; a later one resumes at the cursor.
const MAX_INLINE_WAIT_MS = 5_000;

export type CatalogueSyncPayload = JobPayload<typeof CATALOGUE_SYNC_JOB>;

/** Queues a full sync of a shop's catalogue (inside the caller's transaction when given one). */
export async function enqueueCatalogueSync(client: Tx | Db, shopDomain: string, now = new Date()) {
  const payload: CatalogueSyncPayload = { shopDomain, startedAt: now.toISOString(), after: null, pages: 0 };
  return enqueueJob(client, CATALOGUE_SYNC_JOB, payload, {
    uniqueKey: `${CATALOGUE_SYNC_JOB}:${shopDomain}:${payload.startedAt}`,
  });
}

function toCatalogueRow(p: CatalogueProduct) {
  return {
    admin_graphql_api_id: p.id,
    title: p.title,
    handle: p.handle,
    status: p.status.toLowerCase(),
    image: { src: p.featuredMedia?.preview?.image?.url ?? null },
    variants: [{ price: p.priceRangeV2.minVariantPrice.amount }],
  };
}

export interface SyncOptions {
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  pageSize?: number;
}

/**
 * Runs (a slice of) a catalogue sync. Answers what happened: "done", "no
 * access" (no offline session: a standalone shop), "continued" (a later job
 * carries on at the cursor), or "gone" (the shop is not installed).
 */
export async function runCatalogueSync(
  payload: CatalogueSyncPayload,
  db: Db = getDb(),
  options: SyncOptions = {},
): Promise<"done" | "no access" | "continued" | "gone"> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const pageSize = options.pageSize ?? CATALOGUE_PAGE_SIZE;
  const shop = await db.shop.findUnique({
    where: { domain: payload.shopDomain },
    select: { id: true, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt) return "gone";
  const client = await adminClientFor(payload.shopDomain);
  if (!client) return "no access";
  const started = now();
  let { after, pages } = payload;
  const continueLater = async (runAt: Date) => {
    const next: CatalogueSyncPayload = { ...payload, after, pages };
    await enqueueJob(db, CATALOGUE_SYNC_JOB, next, {
      runAt,
      uniqueKey: `${CATALOGUE_SYNC_JOB}:${payload.shopDomain}:${payload.startedAt}:${pages}`,
    });
    notifyJobsEnqueued();
    return "continued" as const;
  };
  for (;;) {
    let result;
    try {
      result = await client.run(CATALOGUE_PAGE, { first: pageSize, after }, { maxWaitMs: MAX_INLINE_WAIT_MS, sleep });
    } catch (error) {
      if (error instanceof AdminThrottledError) return continueLater(new Date(now() + error.retryAfterMs));
      throw error;
    }
    const { nodes, pageInfo } = result.data.products;
    await upsertProducts(shop.id, nodes.map(toCatalogueRow), db);
    pages += 1;
    after = pageInfo.endCursor;
    if (!pageInfo.hasNextPage) break;
    // Keep within the bucket: when the next page would not fit, wait for it
    // (or, for a long wait, let a later job take over).
    const cost = result.cost;
    if (cost && cost.throttleStatus.currentlyAvailable < cost.requestedQueryCost) {
      const wait = refillMs(cost);
      if (wait > MAX_INLINE_WAIT_MS) return continueLater(new Date(now() + wait));
      await sleep(wait);
    }
    if (now() - started > SLICE_MS) return continueLater(new Date(now()));
  }
  // Collections are few next to products: read in one go once the products are in. A
  // throttled page fails the job, whose retry starts again at the last products page.
  await syncCollections(client, shop.id, db, pageSize, sleep);
  // Every page is in: what the sync did not see (or touch) since it began is gone from Shopify.
  const startedAt = new Date(payload.startedAt);
  await db.product.deleteMany({ where: { shopId: shop.id, updatedAt: { lt: startedAt } } });
  await db.collection.deleteMany({ where: { shopId: shop.id, updatedAt: { lt: startedAt } } });
  // Collections may have changed too: per-collection rules read them afresh.
  await db.productCollections.deleteMany({ where: { shopId: shop.id, fetchedAt: { lt: startedAt } } });
  return "done";
}

/** Every collection of the shop, a page at a time, upserted as it comes. */
async function syncCollections(
  client: AdminClient,
  shopId: string,
  db: Db,
  pageSize: number,
  sleep: (ms: number) => Promise<void>,
) {
  let after: string | null = null;
  for (;;) {
    const result = await client.run(
      COLLECTIONS_PAGE,
      { first: pageSize, after },
      { maxWaitMs: MAX_INLINE_WAIT_MS, sleep },
    );
    const page: { nodes: CatalogueCollection[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } =
      result.data.collections;
    await upsertCollections(
      shopId,
      page.nodes.map((c) => ({ gid: c.id, title: c.title, handle: c.handle, imageUrl: c.image?.url ?? null })),
      db,
    );
    after = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) return;
  }
}
