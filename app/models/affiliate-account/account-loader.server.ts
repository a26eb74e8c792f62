import { getConfig } from "../../config.server";
import { shopHandle } from "../../lib/portal-ways";
import { portalPagesUrl } from "../portal/portal-context.server";
import { requireAffiliate } from "./affiliate-session.server";

// Child pages of /account re-check the session themselves: Remix runs loaders
// in parallel, so the layout's check does not guard them.
export async function accountContext(request: Request) {
  const ctx = await requireAffiliate(request);
  // Absolute links to the portal pages (recruit links) come from the
  // configuration or the verified custom domain, never the Host header.
  const pagesUrl = portalPagesUrl({ shop: ctx.shop, way: ctx.way, handle: shopHandle(ctx.shop.domain) });
  return { ...ctx, appUrl: getConfig().appUrl, pagesUrl };
}
