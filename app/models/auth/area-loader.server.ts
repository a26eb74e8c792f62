import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Area } from "../../lib/areas";
import { notFound, requireMerchant } from "./require-merchant.server";

const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

type Finder = (shopId: string, id: string) => Promise<unknown | null>;

/**
 * Loader of a page that only needs its area checked. With `find`, the page
 * is about one record: an id that is not this shop's gives 404.
 * Route modules call it inside their own `loader` function: a call at module
 * scope would survive into the browser bundle.
 */
export async function areaLoader({ request, params }: LoaderFunctionArgs, area: Area, find?: Finder) {
  const ctx = await requireMerchant(request, params.role, { area });
  if (find) {
    const id = params.id ?? "";
    // Ids are cuids; anything else cannot exist, and must not reach the
    // database (PostgreSQL refuses a NUL byte with an error, not a miss).
    const record = RECORD_ID.test(id) ? await find(ctx.shop.id, id) : null;
    if (!record) throw notFound();
  }
  return json({ area });
}

/**
 * Action of a page whose actions are not built yet: the area is checked like
 * any action (403 for staff without it), then the request is refused plainly.
 */
export async function areaAction({ request, params }: ActionFunctionArgs, area: Area) {
  await requireMerchant(request, params.role, { area });
  return json({ error: { code: "method_not_allowed", message: "This page has no actions yet." } }, { status: 405 });
}
