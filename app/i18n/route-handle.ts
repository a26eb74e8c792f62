// What a route's `handle` says about its translations (read by the server's
// render, app/i18n/i18next.server.ts). Shared so routes can type their handle.

import type { RouteTitle } from "./page-title";

/** What one document shows: a route's loader data and the render's errors. */
export interface ShownOnPage {
  /** This route's loader data (undefined when its loader threw). */
  data: unknown;
  /** The errors the document's boundaries show (a thrown 403, ...). */
  errors: unknown[];
}

export interface RouteHandle {
  /** The namespaces the route's screens render with, every time. */
  i18n?: string | string[];
  /**
   * Namespaces only some documents of the route show (a banner, an error
   * screen): they reach the document's payload only then. The browser loads
   * them when a later render asks for them, like any namespace a screen
   * needs after the first document.
   */
  i18nShown?: (shown: ShownOnPage) => string[];
  /** The screen's name in the document's <title> (a key of one of its namespaces; page-title.ts). */
  title?: RouteTitle;
  /** Affiliate pages, rendered on the server only (root.tsx). */
  portal?: boolean;
}
