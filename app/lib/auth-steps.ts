// The /auth screen's decision, in the order the spec gives:
// 1. plan_id  2. code  3. embedded  4. otherwise (shop or no shop).
// Pure so it is tested as a table; the screen carries the step out.

export type AuthStep =
  | { type: "navigate"; to: string; topLevel?: boolean }
  // Shopify's library would not start the authorization (see REFUSED_PARAM): the error screen.
  | { type: "refused" }
  | {
      type: "call-auth";
      query: string;
      // Where to go when GET /api/auth answers, and when it fails.
      onSuccess: string;
      onFailure: string | "error-screen";
      storeShop: boolean;
    };

const DASHBOARD = "/admin/dashboard";

function withParams(path: string, params: URLSearchParams): string {
  const q = params.toString();
  return q ? `${path}${path.includes("?") ? "&" : "?"}${q}` : path;
}

function shopAndHost(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const shop = params.get("shop");
  const host = params.get("host");
  if (shop) out.set("shop", shop);
  if (host) out.set("host", host);
  return out;
}

// A way back longer than this is dropped: a URL that long is no page a
// person bookmarked, and carried in Location and a hidden field it made
// 16 KB headers (proxies refuse those; it is also a cheap amplifier).
export const MAX_REDIRECT_LENGTH = 2048;

/** The login page with the way back to `back` (dropped when over MAX_REDIRECT_LENGTH encoded). */
export function loginPathWithReturn(loginPath: string, back: string): string {
  const encoded = encodeURIComponent(back);
  return encoded.length > MAX_REDIRECT_LENGTH ? loginPath : `${loginPath}?redirectTo=${encoded}`;
}

/** redirectPath must stay inside the app: a relative path, never another origin, at most 2 KB. */
export function safeRedirectPath(value: string | null): string | null {
  if (!value || value.length > MAX_REDIRECT_LENGTH) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, "http://app.invalid");
    if (url.origin !== "http://app.invalid") return null;
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/**
 * Set by /api/auth/authorize when Shopify's library refused to start the
 * authorization (it answers an empty 410 to a browser that calls itself a
 * bot, headless Chromium included): the screen says so instead of trying again.
 */
export const REFUSED_PARAM = "oauth_refused";

export function decideAuthStep(search: string, opts: { inIframe: boolean }): AuthStep {
  const params = new URLSearchParams(search);
  if (params.has(REFUSED_PARAM)) return { type: "refused" };

  const planId = params.get("plan_id");
  if (planId !== null) {
    const rest = new URLSearchParams(params);
    rest.delete("plan_id");
    rest.append("plan_id", planId);
    return { type: "navigate", to: withParams("/admin/plans/activate", rest) };
  }

  if (params.get("code") !== null) {
    return {
      type: "call-auth",
      query: params.toString(),
      onSuccess: withParams(DASHBOARD, shopAndHost(params)),
      onFailure: "/login",
      storeShop: false,
    };
  }

  if (params.get("embedded") !== null) {
    const redirectPath = safeRedirectPath(params.get("redirectPath"));
    const rest = new URLSearchParams(params);
    rest.delete("redirectPath");
    if (redirectPath) return { type: "navigate", to: withParams(redirectPath, rest) };
    return {
      type: "call-auth",
      query: params.toString(),
      onSuccess: withParams(DASHBOARD, shopAndHost(params)),
      onFailure: "error-screen",
      storeShop: true,
    };
  }

  const shop = params.get("shop");
  if (!shop) return { type: "navigate", to: DASHBOARD };
  return {
    type: "navigate",
    to: withParams("/api/auth/authorize", new URLSearchParams({ shop })),
    topLevel: opts.inIframe,
  };
}
