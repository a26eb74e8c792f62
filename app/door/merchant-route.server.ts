import type { ShopDb } from "../db/shop-db.server";
import type { Area } from "../lib/areas";
import { noteShop } from "../lib/request-notes";
import { requireApiMerchant, requireMerchant, type MerchantContext } from "../models/auth/require-merchant.server";
import { isRead, mark, readInput, runRoute, withDeclaredWrites, type InputSpec, type RouteArgs } from "./door.server";
import type { Schema } from "./input.server";
import type { PlanFeature } from "../models/plans/plans";
import { requirePlanFeature } from "./plan-check.server";
import { routeShopDb } from "./route-db.server";
import { requireSameOrigin } from "./same-origin.server";

// The door of every /{role}/... loader and action (admin and staff): who is
// asking (embedded session token or standalone login), whether their role may
// open the area, the shop's own database client, the input through the
// route's schemas, and errors turned into answers. `area` is required: "any"
// is the explicit choice for screens every staff member may open.

export interface MerchantSpec<Q, B, P> extends InputSpec<Q, B, P> {
  area: Area | "any";
  /** "api": a JSON endpoint of the admin's own client (401 JSON instead of a login redirect). */
  auth?: "page" | "api";
  /** A feature of the pricing plans: without it the door answers with an upgrade prompt. */
  feature?: PlanFeature;
}

export interface MerchantRequest<Q, B, P> extends MerchantContext {
  request: Request;
  db: ShopDb;
  query: Q;
  body: B;
  params: P;
}

export function merchantRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: MerchantSpec<Q, B, P>,
  handler: (ctx: MerchantRequest<Q, B, P>) => Promise<R>,
) {
  const route = (args: RouteArgs) =>
    runRoute(args, async () => {
      const area = spec.area === "any" ? undefined : spec.area;
      const ctx =
        spec.auth === "api"
          ? await requireApiMerchant(args.request, area)
          : await requireMerchant(args.request, args.params.role, { area, context: args.context });
      noteShop(args.context, ctx.shop.domain);
      requirePlanFeature(ctx.shop.pricingPlan, ctx.role, spec.feature);
      // Embedded requests carry a session token, not a cookie: nothing to forge.
      if (ctx.mode === "standalone" && !isRead(args.request)) requireSameOrigin(args.request);
      const input = await readInput(args, spec);
      const db = routeShopDb(args.request, spec, ctx.shop);
      return withDeclaredWrites(spec, () => handler({ ...ctx, request: args.request, db, ...input }));
    });
  return mark(route, { kind: "merchant", area: spec.area });
}

/** A page that reads nothing but must still be closed to staff without its area. */
export function areaPage(area: Area | "any", feature?: PlanFeature) {
  return merchantRoute({ area, feature }, async () => ({ area }));
}

/** A page about one record (placeholder screens): an id that is not this shop's is 404. */
export function recordPage<P extends { id: string }>(
  area: Area,
  params: Schema<P>,
  find: (db: ShopDb, id: string) => Promise<unknown>,
) {
  return merchantRoute({ area, params }, async ({ db, params }) => {
    await find(db, params.id);
    return { area };
  });
}
