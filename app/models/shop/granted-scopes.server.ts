import { getDb, type Db } from "../../db.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { adminClientFor } from "../shopify/admin-client.server";
import { GRANTED_SCOPES } from "../shopify/admin-operations";
import { enqueueWebPixelSync } from "./web-pixel.server";

// app/scopes_update says the merchant granted or revoked scopes. Its body is
// signed but names the shop only by its numeric id, and the shop header is
// not signed: a captured body could be replayed against another shop, or an
// old one after a newer. So the body is only the signal; the scopes stored on
// the shop's offline session are read back from Shopify, which makes any
// replay, duplicate or reordering end in the same, true state.

export const SCOPES_REFRESH_JOB = "scopes.refresh" as const;

/**
 * The "scopes.refresh" job: the offline session's scope is what Shopify says
 * the shop granted. A shop that has just granted the pixel's scope (a merchant
 * accepting a new version's scopes) gets its web pixel now, not at the next
 * worker start.
 */
export async function refreshGrantedScopes(
  payload: { shopDomain: string },
  appUrl: string,
  db: Db = getDb(),
): Promise<{ scope: string; pixelQueued: boolean } | "no access"> {
  const client = await adminClientFor(payload.shopDomain);
  if (!client) return "no access";
  const { data } = await client.run(GRANTED_SCOPES, {});
  const handles = data.currentAppInstallation.accessScopes.map((s) => s.handle);
  const scope = handles.join(",");
  await db.session.updateMany({ where: { shop: payload.shopDomain, isOnline: false }, data: { scope } });
  const shop = await db.shop.findUnique({
    where: { domain: payload.shopDomain },
    select: { id: true, uninstalledAt: true, webPixelUrl: true },
  });
  const pixelQueued = !!shop && !shop.uninstalledAt && shop.webPixelUrl !== appUrl && handles.includes("write_pixels");
  if (pixelQueued) {
    await enqueueWebPixelSync(db, shop.id);
    notifyJobsEnqueued();
  }
  return { scope, pixelQueued };
}
