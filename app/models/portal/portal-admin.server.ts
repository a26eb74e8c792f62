import { getDb } from "../../db.server";
import { shopHandle, DEFAULT_PROXY_PREFIX } from "../../lib/portal-ways";
import { PORTAL_PAGE_KINDS } from "../../lib/portal-content";
import { getConfig } from "../../config.server";
import { portalDomainState } from "./portal-domain.server";

// The Portals screen's data: the three pages, the ways in, the custom domain.

export async function portalOverview(shop: { id: string; domain: string; portalDomain: string | null }) {
  const rows = await getDb().portalPage.findMany({
    where: { shopId: shop.id },
    select: { kind: true, publishedAt: true, updatedAt: true, draft: true, published: true },
  });
  const handle = shopHandle(shop.domain);
  const appUrl = getConfig().appUrl;
  return {
    pages: PORTAL_PAGE_KINDS.map((kind) => {
      const row = rows.find((r) => r.kind === kind);
      return {
        kind,
        publishedAt: row?.publishedAt ?? null,
        updatedAt: row?.updatedAt ?? null,
        unpublished: !!row && row.draft !== (row.published ?? ""),
      };
    }),
    ways: {
      app: `${appUrl}/portal/${handle}/`,
      proxy: `https://${shop.domain}${DEFAULT_PROXY_PREFIX}`,
      custom: shop.portalDomain ? `https://${shop.portalDomain}/` : null,
    },
    // What the merchant typed (pending or verified), and its state.
    domain: await portalDomainState(shop.id),
  };
}
