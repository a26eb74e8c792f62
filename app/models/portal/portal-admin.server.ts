import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { normalizeHostName, shopHandle, DEFAULT_PROXY_PREFIX } from "../../lib/portal-ways";
import { PORTAL_PAGE_KINDS } from "../../lib/portal-content";
import { getConfig } from "../../config.server";

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
    portalDomain: shop.portalDomain ?? "",
  };
}

/** Sets (or with "" clears) the custom portal domain; a domain another shop uses is refused. */
export async function setPortalDomain(shopId: string, raw: string) {
  if (raw.trim() === "") {
    await getDb().shop.update({ where: { id: shopId }, data: { portalDomain: null } });
    return null;
  }
  const host = normalizeHostName(raw);
  if (!host) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { portalDomain: "Enter a domain name such as affiliates.yourstore.com (not a myshopify.com domain)." },
    });
  }
  const appHost = new URL(getConfig().appUrl).hostname;
  const taken = await getDb().shop.findFirst({
    where: { portalDomain: host, id: { not: shopId } },
    select: { id: true },
  });
  if (taken || host === appHost) {
    throw new AppError("conflict", "This domain is already in use.", {
      fields: { portalDomain: "This domain is already in use." },
    });
  }
  await getDb().shop.update({ where: { id: shopId }, data: { portalDomain: host } });
  return host;
}
