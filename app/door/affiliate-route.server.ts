import { getConfig } from "../config.server";
import type { ShopDb } from "../db/shop-db.server";
import { shopHandle } from "../lib/portal-ways";
import { noteShop } from "../lib/request-notes";
import { requireAffiliate, type AffiliateContext } from "../models/affiliate-account/affiliate-session.server";
import { portalPagesUrl } from "../models/portal/portal-context.server";
import {
  type InputSpec,
  isRead,
  keepingForm,
  mark,
  readInput,
  type RouteArgs,
  runRoute,
  withDeclaredWrites,
} from "./door.server";
import { routeShopDb } from "./route-db.server";
import { requireSameOrigin } from "./same-origin.server";

// The door of every /account/... loader and action: the logged-in affiliate
// (or a redirect to their shop's login), the shop's own database client, the
// input through the route's schemas, and errors as answers. The account pages
// are plain HTML forms, so an action's error also carries the values typed.

// Routes write `export const loader = /* @__PURE__ */ affiliateRoute(...)`: the
// classic compiler's browser build drops a route's loader and action only by
// tree-shaking, which keeps a top-level call unless it is marked pure, and
// this .server module is empty in the browser (calling it there throws, and
// the page never hydrates).

export interface AffiliateRequest<Q, B, P> extends AffiliateContext {
  request: Request;
  db: ShopDb;
  appUrl: string;
  /**
   * Absolute address of this shop's portal pages (recruit links): from the
   * configuration or the verified custom domain, never the Host header.
   */
  pagesUrl: string;
  query: Q;
  body: B;
  params: P;
}

export function affiliateRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: InputSpec<Q, B, P>,
  handler: (ctx: AffiliateRequest<Q, B, P>) => Promise<R>,
) {
  const route = (args: RouteArgs) =>
    runRoute(
      args,
      async () => {
        const ctx = await requireAffiliate(args.request, args.context);
        noteShop(args.context, ctx.shop.domain);
        if (!isRead(args.request)) requireSameOrigin(args.request);
        const input = await readInput(args, spec);
        const db = routeShopDb(args.request, spec, ctx.shop);
        return keepingForm(input.rawBody, () =>
          withDeclaredWrites(spec, () =>
            handler({
              ...ctx,
              request: args.request,
              db,
              appUrl: getConfig().appUrl,
              pagesUrl: portalPagesUrl({ shop: ctx.shop, way: ctx.way, handle: shopHandle(ctx.shop.domain) }),
              ...input,
            }),
          ),
        );
      },
      { echo: true },
    );
  return mark(route, { kind: "affiliate" });
}
