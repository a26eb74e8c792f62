import { getDb, type Db } from "../../db.server";
import { adminClientFor } from "../shopify/admin-client.server";
import { GRANTED_SCOPES } from "../shopify/admin-operations";

// app/scopes_update says the merchant granted or revoked scopes. Its body is
// signed but names the shop only by its numeric id, and the shop header is
// not signed: a captured body could be replayed against another shop, or an
// old one after a newer. So the body is only the signal; the scopes stored on
// the shop's offline session are read back from Shopify, which makes any
// replay, duplicate or reordering end in the same, true state.

export const SCOPES_REFRESH_JOB = "scopes.refresh" as const;

/** The "scopes.refresh" job: the offline session's scope is what Shopify says the shop granted. */
export async function refreshGrantedScopes(
  payload: { shopDomain: string },
  db: Db = getDb(),
): Promise<{ scope: string } | "no access"> {
  const client = await adminClientFor(payload.shopDomain);
  if (!client) return "no access";
  const { data } = await client.run(GRANTED_SCOPES, {});
  const scope = data.currentAppInstallation.accessScopes.map((s) => s.handle).join(",");
  await db.session.updateMany({ where: { shop: payload.shopDomain, isOnline: false }, data: { scope } });
  return { scope };
}
