import { readBranding } from "../settings/branding";
import { getDb } from "../../db.server";
import { shopDb } from "../../db/shop-db.server";
import { rememberPortal } from "./affiliate-session.server";
import { portalLanguageParam } from "../../i18n/language-table";
import type { PortalPageKind } from "../../lib/portal-content";
import { publishedPage } from "../portal/portal-pages.server";
import { resolvePortal, type PortalContext } from "../portal/portal-context.server";

/**
 * What every public portal page loads: the shop, how it came in, its
 * published content, and the shop's own database client for the page's
 * form (the public door has no session to take the shop from).
 */
export async function loadPortalPage(request: Request, handle: string | undefined, kind: PortalPageKind) {
  const ctx = await resolvePortal(request, handle);
  const page = await publishedPage(ctx.shop.id, kind);
  return { ctx, page, chrome: chromeOf(ctx, request), db: shopDb(getDb(), ctx.shop.id) };
}

export function chromeOf(ctx: PortalContext, request?: Request) {
  // A language picked on a portal page travels with its links and forms (the
  // app proxy drops cookies): "?lang=jp" or "".
  const lang = request ? portalLanguageParam(new URL(request.url).searchParams.get("lang")) : null;
  return {
    shopName: ctx.shop.name,
    branding: readBranding(ctx.shop.settings),
    base: ctx.base,
    accountOrigin: ctx.accountOrigin,
    lang,
    query: lang ? `?lang=${lang}` : "",
  };
}

/** The remembered portal (for /account's login redirect), on the app domain only. */
export async function portalHeaders(ctx: PortalContext): Promise<HeadersInit> {
  const headers: Record<string, string> = { "Cache-Control": "private, no-store" };
  if (ctx.way === "app") headers["Set-Cookie"] = await rememberPortal(ctx.handle);
  return headers;
}
