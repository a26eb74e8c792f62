import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getDb } from "~/db.server";
import { shopify } from "~/shopify.server";
import { parseReferralCode } from "~/models/tracking/referral-code";
import { findApprovedAffiliate, recordClick } from "~/models/tracking/record-click.server";

// GET /proxy/click?code=&landing=&referrer= through Shopify's app proxy
// (https://{shop}/apps/affiliate/click, see shopify.app.toml [app_proxy]).
// The storefront script calls it when a visitor arrived with ?ref=CODE but
// not through /r/{code}, so the visit still gets a click id.
//
// Shopify signs every proxied request; a missing or bad signature is refused
// (400) before anything is read. The shop is the signed `shop` parameter,
// never anything the visitor chose.
const HEADERS = { "Cache-Control": "private, no-store" };

export async function loader({ request }: LoaderFunctionArgs) {
  await shopify().authenticate.public.appProxy(request);
  const url = new URL(request.url);
  const shopDomain = url.searchParams.get("shop") ?? "";
  const code = parseReferralCode(url.searchParams.get("code"));
  const shop = code
    ? await getDb().shop.findFirst({
        where: { domain: shopDomain, uninstalledAt: null },
        select: { id: true, domain: true },
      })
    : null;
  const affiliate = shop && code ? await findApprovedAffiliate(shop.id, code) : null;
  if (!shop || !affiliate) return json({ click_id: null }, { headers: HEADERS });

  const clickId = await recordClick(
    {
      shopId: shop.id,
      affiliateId: affiliate.id,
      source: "proxy",
      landingUrl: landingUrl(url.searchParams.get("landing"), shop.domain),
      referrer: url.searchParams.get("referrer"),
      // The request comes from Shopify's proxy: the visitor's address, when
      // Shopify passes it on, is the first X-Forwarded-For entry. It is only
      // ever stored as a keyed hash.
      ip: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null,
      userAgent: request.headers.get("user-agent"),
    },
    getConfig().SESSION_SECRET,
  );
  return json({ click_id: clickId }, { headers: HEADERS });
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
