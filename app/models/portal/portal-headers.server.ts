import type { HeadersFunction } from "@remix-run/node";

/** A portal form's document headers: a throttled action's Retry-After reaches the browser. */
export const portalActionHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
