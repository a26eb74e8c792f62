import { getDb, type Db } from "../../db.server";
import { bind, dialectOf } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { enqueueJob, notifyJobsEnqueued } from "../jobs/enqueue.server";
import { AdminApiError, adminClientFor } from "../shopify/admin-client.server";
import { APP_WEB_PIXEL, WEB_PIXEL_CREATE, WEB_PIXEL_UPDATE } from "../shopify/admin-operations";

// The web pixel (extensions/affiliate-pixel) reports checkouts to
// {app_url}/api/pixel/checkout-completed, so each shop needs one, with this
// deployment's URL in its settings. Shopify keeps one pixel per app and shop:
// a job creates it at install and updates it when the app's URL changes
// (a worker that starts with another SHOPIFY_APP_URL queues the updates).
// Repeating the job is harmless: it ends with the shop's pixel on `appUrl`.

export const WEB_PIXEL_JOB = "pixel.sync" as const;

/** The settings of extensions/affiliate-pixel/shopify.extension.toml's [settings]. */
export function webPixelSettings(appUrl: string) {
  return JSON.stringify({ app_url: appUrl });
}

/** Queues the shop's pixel sync (inside the caller's transaction when given one). */
export async function enqueueWebPixelSync(client: Tx | Db, shopId: string, now = new Date()) {
  // One queued sync per shop at a time; a later one runs after it is done.
  return enqueueJob(client, WEB_PIXEL_JOB, { shopId }, { uniqueKey: `${WEB_PIXEL_JOB}:${shopId}:${now.getTime()}` });
}

/**
 * At a worker's start: a sync for every installed shop whose pixel is not on
 * `appUrl` (never created, or created for another URL) and has none queued.
 */
export async function queueWebPixelSyncs(db: Db, appUrl: string, now = new Date()) {
  const shops = await db.$queryRawUnsafe<{ id: string }[]>(
    bind(
      dialectOf(db),
      `SELECT s."id" FROM "Shop" s WHERE s."uninstalledAt" IS NULL
       AND (s."webPixelUrl" IS NULL OR s."webPixelUrl" <> ?)
       AND NOT EXISTS (SELECT 1 FROM "Job" j WHERE j."type" = '${WEB_PIXEL_JOB}' AND j."status" IN ('queued', 'running')
         AND j."uniqueKey" LIKE '${WEB_PIXEL_JOB}:' || s."id" || ':%')`,
    ),
    appUrl,
  );
  for (const shop of shops) await enqueueWebPixelSync(db, shop.id, now);
  if (shops.length) notifyJobsEnqueued();
  return shops.length;
}

export class WebPixelRefused extends Error {
  constructor(mutation: string, errors: { field: string[] | null; message: string; code?: string | null }[]) {
    super(`Shopify refused ${mutation}: ${errors.map((e) => `${e.code ?? "error"}: ${e.message}`).join("; ")}`);
    this.name = "WebPixelRefused";
  }
}

export type WebPixelOutcome = "created" | "updated" | "unchanged" | "no access" | "gone";

/** The "pixel.sync" job: the shop's pixel exists and points at `appUrl`. */
export async function syncWebPixel(
  payload: { shopId: string },
  appUrl: string,
  db: Db = getDb(),
): Promise<WebPixelOutcome> {
  const shop = await db.shop.findUnique({
    where: { id: payload.shopId },
    select: { id: true, domain: true, uninstalledAt: true, webPixelId: true, webPixelUrl: true },
  });
  if (!shop || shop.uninstalledAt) return "gone";
  // A standalone shop has no offline session: there is no Shopify pixel to keep.
  const client = await adminClientFor(shop.domain);
  if (!client) return "no access";
  const settings = webPixelSettings(appUrl);
  const saved = async (id: string, outcome: WebPixelOutcome) => {
    await db.shop.update({ where: { id: shop.id }, data: { webPixelId: id, webPixelUrl: appUrl } });
    return outcome;
  };

  if (shop.webPixelId) {
    if (shop.webPixelUrl === appUrl) return "unchanged";
    const { data } = await client.run(WEB_PIXEL_UPDATE, { id: shop.webPixelId, settings });
    const { webPixel, userErrors } = data.webPixelUpdate;
    if (webPixel) return saved(webPixel.id, "updated");
    // Gone from Shopify (removed with an uninstall we have not heard of): create it again below.
    if (!userErrors.some((e) => e.code === "NOT_FOUND")) throw new WebPixelRefused("webPixelUpdate", userErrors);
  }

  const { data } = await client.run(WEB_PIXEL_CREATE, { settings });
  const { webPixel, userErrors } = data.webPixelCreate;
  if (webPixel) return saved(webPixel.id, "created");
  if (!userErrors.some((e) => e.code === "TAKEN")) throw new WebPixelRefused("webPixelCreate", userErrors);

  // The shop has the app's pixel already (a re-install, or a row that lost its id).
  const existing = (await client.run(APP_WEB_PIXEL, {})).data.webPixel;
  if (!existing) throw new AdminApiError("webPixelCreate answered TAKEN, yet the shop has no web pixel of this app");
  if (sameSettings(existing.settings, settings)) return saved(existing.id, "unchanged");
  const updated = (await client.run(WEB_PIXEL_UPDATE, { id: existing.id, settings })).data.webPixelUpdate;
  if (!updated.webPixel) throw new WebPixelRefused("webPixelUpdate", updated.userErrors);
  return saved(updated.webPixel.id, "updated");
}

function sameSettings(a: unknown, b: string) {
  try {
    const left = typeof a === "string" ? JSON.parse(a) : a;
    return JSON.stringify(left) === b;
  } catch {
    return false;
  }
}
