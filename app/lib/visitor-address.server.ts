import { getConfig } from "../config.server";
import { forwardedEntry } from "./forwarded-address";

// The addresses rate limits count by (see forwarded-address.ts for why the
// entries are read from the end). TRUST_PROXY=1 says one reverse proxy of
// our own stands in front of the app and appends the address it saw.

function socketAddress(request: Request): string {
  // Set by app-server.ts from the socket, overwriting anything a client sent.
  return request.headers.get("x-app-remote-address") ?? "unknown";
}

/** The client's address for direct requests (logins, sign-ups). */
export function clientAddress(request: Request): string {
  if (!getConfig().TRUST_PROXY) return socketAddress(request);
  return forwardedEntry(request.headers.get("x-forwarded-for"), 0) ?? socketAddress(request);
}

/**
 * The storefront visitor's address on a request through Shopify's app
 * proxy: the entry Shopify's proxy appended (the last one, or the one
 * before our own proxy's). Whatever the visitor put in front is ignored.
 */
export function proxyVisitorAddress(request: Request): string {
  const hops = getConfig().TRUST_PROXY ? 1 : 0;
  return forwardedEntry(request.headers.get("x-forwarded-for"), hops) ?? socketAddress(request);
}
