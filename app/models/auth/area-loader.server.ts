import { json, type LoaderFunctionArgs } from "@remix-run/node";
import type { Area } from "../../lib/areas";
import { notFound, requireMerchant } from "./require-merchant.server";

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
    const record = id.length <= 64 ? await find(ctx.shop.id, id) : null;
    if (!record) throw notFound();
  }
  return json({ area });
}
