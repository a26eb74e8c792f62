// Where affiliates find the shop's program: the portal pages served on the
// app's domain (the affiliate portal's routes). One place to change if the
// portal moves (a custom domain, the Shopify app proxy).

/** The shop's handle in portal URLs: its myshopify.com name. */
export function shopHandle(domain: string): string {
  return domain.replace(/\.myshopify\.com$/i, "").toLowerCase();
}

export interface AffiliateLinks {
  landing: string;
  signup: string;
  login: string;
}

export function affiliateLinks(appUrl: string, domain: string): AffiliateLinks {
  const base = `${appUrl.replace(/\/+$/, "")}/portal/${encodeURIComponent(shopHandle(domain))}`;
  return { landing: `${base}/`, signup: `${base}/signup`, login: `${base}/login` };
}
