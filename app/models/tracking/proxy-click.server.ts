import { z } from "zod";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { readLinkTagsOf } from "./link-tags";
import { findApprovedAffiliate, recordClick } from "./record-click.server";
import { parseReferralCode } from "./referral-code";

// A click reported through Shopify's app proxy (GET /proxy/click): the
// storefront script saw ?ref=CODE on a visit that did not come through
// /r/{code}. The route has checked Shopify's signature; `shop` is the signed
// shop domain. An unknown shop or code is no error: there is just no click.

/** The query of /proxy/click. Never refused: the storefront script only learns "no click id". */
export const proxyClickQuery = z.object({
  shop: z.string().catch(""),
  code: z.string().nullable().catch(null),
  landing: z.string().nullable().catch(null),
  referrer: z.string().nullable().catch(null),
});
export type ProxyClickQuery = z.infer<typeof proxyClickQuery>;

export async function recordProxyClick(
  query: ProxyClickQuery,
  visitor: { ip: string | null; userAgent: string | null },
): Promise<string | null> {
  const code = parseReferralCode(query.code);
  if (!code) return null;
  const shop = await getDb().shop.findFirst({
    where: { domain: query.shop, uninstalledAt: null },
    select: { id: true, domain: true },
  });
  const affiliate = shop ? await findApprovedAffiliate(shop.id, code) : null;
  if (!shop || !affiliate) return null;
  const landing = landingUrl(query.landing, shop.domain);
  return recordClick(
    {
      shopId: shop.id,
      affiliateId: affiliate.id,
      source: "proxy",
      landingUrl: landing,
      referrer: query.referrer,
      ip: visitor.ip,
      userAgent: visitor.userAgent,
      // A ?ref= link's sub_id and utm_* are in the page address the script reports.
      tags: readLinkTagsOf(landing),
    },
    getConfig().SESSION_SECRET,
  );
}

function landingUrl(raw: string | null, shopDomain: string): string {
  if (raw) {
    try {
      const url = new URL(raw);
      if (url.protocol === "https:" || url.protocol === "http:") return url.toString();
    } catch {
      // not a URL: fall back to the shop's home
    }
  }
  return `https://${shopDomain}/`;
}
