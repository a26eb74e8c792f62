import { shopLoadOutcome, type ShopLoadOutcome } from "./shop-loading";

// Browser-side calls to /api (spec section 7): JSON, credentials sent. When
// embedded, App Bridge adds the session-token Authorization header to these
// same-origin requests by itself.
export const SHOP_CACHE_KEY = "/api/admin/shop";

export async function apiGet<T>(path: string): Promise<{ status: number; data: T | null }> {
  const response = await fetch(`/api${path}`, {
    credentials: "include",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
  });
  const data = response.headers.get("content-type")?.includes("application/json")
    ? ((await response.json()) as T)
    : null;
  return { status: response.status, data };
}

export function cacheShop(record: unknown) {
  try {
    window.sessionStorage.setItem(SHOP_CACHE_KEY, JSON.stringify(record));
  } catch {
    // Storage may be blocked in a third-party iframe; the cache is optional.
  }
}

/** GET /shop with the spec's handling: 401 -> login, 409 ignored, others surfaced. */
export async function refetchShop(): Promise<ShopLoadOutcome> {
  try {
    const { status, data } = await apiGet("/shop");
    const outcome = shopLoadOutcome(status);
    if (outcome === "ok") cacheShop(data);
    if (outcome === "surface") console.error(`GET /api/shop failed with ${status}`);
    return outcome;
  } catch (error) {
    console.error("GET /api/shop failed", error);
    return "surface";
  }
}
