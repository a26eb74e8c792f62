import type express from "express";
import { getConfig } from "../config.server";
import { getDb } from "../db.server";
import { portalDomainEvents } from "../models/portal/portal-domain.server";
import { isMyshopifyDomain } from "../models/tracking/redirect-url";
import { PORTAL_SHOP_HEADER, PORTAL_WAY_HEADER, rewritePortalPath, shopHandle } from "../lib/portal-ways";

// Routes the two other ways into the affiliate portal onto its routes
// (/portal/{handle}/...), before Remix sees the request:
// - /proxy/... (Shopify's app proxy): the shop is the signed `shop` query
//   parameter; the page itself verifies the signature (it is kept, since the
//   query string is not changed).
// - a merchant's custom domain (Host header), looked up in Shop.portalDomain
//   (verified domains only: models/portal/portal-domain.server.ts).
// The headers telling the pages which way was used are always overwritten,
// so a visitor cannot choose them.

type HostLookup = (host: string) => Promise<string | null>;

const CACHE_MS = 10_000;

export function dbHostLookup(): HostLookup {
  const cache = new Map<string, { expires: number; domain: string | null }>();
  // A domain verified or given up in this process counts at once; other
  // instances see it within CACHE_MS.
  portalDomainEvents.on("changed", () => cache.clear());
  return async (host) => {
    const hit = cache.get(host);
    if (hit && hit.expires > Date.now()) return hit.domain;
    const shop = await getDb().shop.findFirst({
      where: { portalDomain: host, uninstalledAt: null },
      select: { domain: true },
    });
    if (cache.size > 1000) cache.clear();
    cache.set(host, { expires: Date.now() + CACHE_MS, domain: shop?.domain ?? null });
    return shop?.domain ?? null;
  };
}

// Remix's Express adapter builds the request URL from originalUrl.
function rewrite(req: express.Request, to: string) {
  req.url = to;
  req.originalUrl = to;
}

function isOwnHost(host: string, appHost: string): boolean {
  return host === appHost || host === "localhost" || /^[\d.]+$/.test(host) || host.startsWith("[");
}

export function portalWays(lookup: HostLookup = dbHostLookup()): express.RequestHandler {
  return (req, res, next) => {
    delete req.headers[PORTAL_WAY_HEADER];
    delete req.headers[PORTAL_SHOP_HEADER];
    const q = req.url.indexOf("?");
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    const search = q === -1 ? "" : req.url.slice(q);

    if (pathname === "/proxy" || pathname.startsWith("/proxy/")) {
      const shop = new URLSearchParams(search).get("shop");
      const handle = isMyshopifyDomain(shop) ? shopHandle(shop) : "_";
      const to = rewritePortalPath("proxy", handle, pathname);
      if (to) {
        req.headers[PORTAL_WAY_HEADER] = "proxy";
        rewrite(req, to + search);
      }
      return next();
    }

    const host = (req.headers.host ?? "").toLowerCase().replace(/:\d+$/, "");
    const appHost = new URL(getConfig().appUrl).hostname.toLowerCase();
    if (!host || isOwnHost(host, appHost)) return next();
    lookup(host)
      .then((domain) => {
        if (domain) {
          req.headers[PORTAL_WAY_HEADER] = "custom";
          // The host, not the cached shop: the page looks the shop up again,
          // so a domain moved to another shop is never served from the cache.
          req.headers[PORTAL_SHOP_HEADER] = host;
          const to = rewritePortalPath("custom", shopHandle(domain), pathname);
          if (to) rewrite(req, to + search);
        }
        next();
      })
      .catch((error: unknown) => {
        console.error("[portal] custom domain lookup failed:", error);
        res.status(503).type("text/plain").send("Something went wrong, please try again.");
      });
  };
}
