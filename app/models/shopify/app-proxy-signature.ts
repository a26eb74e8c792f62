import { createHmac } from "node:crypto";

// How Shopify signs an app proxy request: the query parameters (without
// `signature`) sorted by name, each "name=value" (several values joined by
// ","), concatenated with no separator, HMAC-SHA256 with the app's secret,
// hex. The app checks it with Shopify's own library; this copy is for the
// store simulator, which plays Shopify's part.
export function appProxySignature(params: URLSearchParams, secret: string): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of params) if (k !== "signature") grouped.set(k, [...(grouped.get(k) ?? []), v]);
  const message = [...grouped]
    .map(([k, v]) => `${k}=${v.join(",")}`)
    .sort()
    .join("");
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** The URL Shopify's proxy calls for https://{shop}{prefix}{path}. */
export function signedProxyUrl(appUrl: string, shop: string, path: string, secret: string, now = Date.now()): string {
  const url = new URL(`${appUrl.replace(/\/$/, "")}/proxy${path === "/" ? "/" : path}`);
  url.searchParams.set("shop", shop);
  url.searchParams.set("logged_in_customer_id", "");
  url.searchParams.set("path_prefix", "/apps/affiliate");
  url.searchParams.set("timestamp", String(Math.floor(now / 1000)));
  url.searchParams.set("signature", appProxySignature(url.searchParams, secret));
  return url.toString();
}
