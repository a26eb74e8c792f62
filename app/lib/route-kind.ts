// What kind of request a path is, for the request log and the metrics'
// labels: a handful of fixed values, so a label never grows with the URLs
// clients make up. Read from the path as it arrived (before the portal's
// rewrites), cheaply: every request pays for it.

export const ROUTE_KINDS = [
  "ops",
  "click",
  "webhook",
  "asset",
  "api",
  "proxy",
  "admin",
  "affiliate",
  "auth",
  "other",
] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

const OPS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The kind of a request path (no query string needed; one is ignored). */
export function routeKind(url: string): RouteKind {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (OPS.has(path)) return "ops";
  const second = path.indexOf("/", 1);
  const first = second === -1 ? path.slice(1) : path.slice(1, second);
  switch (first) {
    case "r":
      return "click";
    case "webhooks":
      return "webhook";
    case "build":
    case "locales":
    case "creative-files":
    case "portal-assets":
      return "asset";
    case "api":
      return "api";
    case "proxy":
      return "proxy";
    case "admin":
      return path === "/admin/login" ? "auth" : "admin";
    case "staff":
      return path === "/staff/login" || path === "/staff/get-password" ? "auth" : "admin";
    case "account":
    case "portal":
    case "mail":
      return "affiliate";
    case "auth":
    case "login":
    case "logout":
      return "auth";
  }
  // Every file under public/ has an extension; no page's path does.
  const last = path.lastIndexOf("/");
  return path.indexOf(".", last) > last ? "asset" : "other";
}
