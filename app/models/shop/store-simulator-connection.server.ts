import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { SCOPES } from "../../shopify.server";
import { simulatorAccessToken } from "../../simulator/access-token";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { enqueueCatalogueSync } from "../portal/catalogue-sync.server";

// A shop "points at" the store simulator when its offline session holds the
// token the simulator grants (and SHOPIFY_ADMIN_BASE_URL sends the app's
// Shopify calls there). Connecting stores that session and reads the
// catalogue from the simulator; disconnecting removes it, so the shop's next
// launch from Shopify installs it again with a real token.

const sessionId = (shop: string) => `offline_${shop}`;

/** Gives a shop the simulator's offline token; true when the session was new or changed. */
export async function connectShopToSimulator(shopDomain: string): Promise<boolean> {
  const db = getDb();
  const token = simulatorAccessToken(getConfig().SHOPIFY_API_SECRET, shopDomain);
  const existing = await db.session.findUnique({ where: { id: sessionId(shopDomain) } });
  if (existing?.accessToken === token) return false;
  const session = { shop: shopDomain, state: "", isOnline: false, scope: SCOPES.join(","), accessToken: token };
  await db.$transaction(async (tx) => {
    await tx.session.upsert({
      where: { id: sessionId(shopDomain) },
      create: { id: sessionId(shopDomain), ...session },
      update: session,
    });
    if (await tx.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } }))
      await enqueueCatalogueSync(tx, shopDomain);
  });
  notifyJobsEnqueued();
  return true;
}

/** Removes a shop's simulator session (a real Shopify session is left alone); true when one was removed. */
export async function disconnectShopFromSimulator(shopDomain: string): Promise<boolean> {
  const token = simulatorAccessToken(getConfig().SHOPIFY_API_SECRET, shopDomain);
  const { count } = await getDb().session.deleteMany({ where: { id: sessionId(shopDomain), accessToken: token } });
  return count > 0;
}

/** The demo's own store simulator is running (started by `npm start`) and the app's Shopify calls go to it. */
export function demoStoreRunning(): boolean {
  const url = getConfig().STORE_SIMULATOR_URL;
  return Boolean(url && url === getConfig().SHOPIFY_ADMIN_BASE_URL);
}
