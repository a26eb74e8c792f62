// The query parameters an embedded page must keep when the app sends the
// merchant to another of its pages (App Bridge reads host; shop and embedded
// tell the server it is inside the Shopify admin).
const KEPT = ["host", "shop", "embedded"] as const;

export function keptParams(url: URL, extra: Record<string, string> = {}): string {
  const keep = new URLSearchParams();
  for (const key of KEPT) {
    const value = url.searchParams.get(key);
    if (value) keep.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) keep.set(key, value);
  return keep.toString();
}
