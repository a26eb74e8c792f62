import { getConfig } from "../config.server";
import { AppError } from "../lib/errors";

// Cross-site request forgery guard for requests that a browser authenticates
// by cookie (the standalone merchant session, the affiliate session). A page
// on another origin, even another port of the same host (which counts as the
// same *site*, so SameSite=Lax cookies ride along), can make the browser send
// a POST with those cookies; it cannot make the browser lie about where the
// request comes from. Browsers mark every non-GET request with Origin and,
// since 2020-2023, Sec-Fetch-Site; a request that carries neither is not from
// a browser page, so it cannot be forged by one.

function hostOf(value: string | null): string | null {
  if (!value || value === "null") return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

/** The hosts this request may come from: its own, and the app's public one. */
function ownHosts(request: Request): Set<string> {
  const hosts = new Set<string>();
  const own = request.headers.get("host");
  if (own) hosts.add(own.toLowerCase());
  if (getConfig().TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    if (forwarded) hosts.add(forwarded.toLowerCase());
  }
  const app = hostOf(getConfig().appUrl);
  if (app) hosts.add(app);
  return hosts;
}

/** Whether a cookie-authenticated change comes from this app's own pages. */
export function isSameOrigin(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const host = hostOf(origin);
    return host !== null && ownHosts(request).has(host);
  }
  // No Origin: an old browser sends Referer instead; no browser sends neither
  // on a form or fetch POST.
  const referer = request.headers.get("referer");
  if (referer !== null) {
    const host = hostOf(referer);
    return host !== null && ownHosts(request).has(host);
  }
  return fetchSite === "same-origin" || fetchSite === null;
}

export function requireSameOrigin(request: Request) {
  if (!isSameOrigin(request)) {
    throw new AppError(
      "forbidden",
      "This change must be made from the app's own pages. Reload the page and try again.",
    );
  }
}
