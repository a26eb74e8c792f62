import { z } from "zod";
import { getDb, type Db } from "../../db.server";
import type { Tx } from "../../db/transaction";

// A shop's product catalogue as the portal needs it (link builder, the
// affiliate products page). The Admin API is not reachable from here, so the
// catalogue is kept in the Product table: the demo seed fills it, and
// upsertProducts is the one entry point a products/* webhook handler or an
// Admin GraphQL sync calls with Shopify's product shape.

export interface ShopifyProductLike {
  admin_graphql_api_id: string;
  title: string;
  handle: string;
  status?: string | null;
  image?: { src?: string | null } | null;
}

/** products/create and products/update bodies, as far as the catalogue reads them. */
export const productPayloadSchema = z.object({
  admin_graphql_api_id: z.string().min(1).max(255),
  title: z.string(),
  handle: z.string(),
  status: z.string().nullish(),
  image: z.object({ src: z.string().nullish() }).nullish(),
});

export async function upsertProducts(shopId: string, products: ShopifyProductLike[], db: Tx | Db = getDb()) {
  for (const p of products) {
    const data = {
      title: p.title.slice(0, 255),
      handle: p.handle.slice(0, 255),
      status: p.status === "draft" || p.status === "archived" ? p.status : "active",
      imageUrl: p.image?.src ?? null,
    };
    await db.product.upsert({
      where: { shopId_gid: { shopId, gid: p.admin_graphql_api_id } },
      create: { shopId, gid: p.admin_graphql_api_id, ...data },
      update: data,
    });
  }
}

export async function deleteProduct(shopId: string, gid: string, db: Tx | Db = getDb()) {
  await db.product.deleteMany({ where: { shopId, gid } });
}

export const DEMO_PRODUCTS: ShopifyProductLike[] = [
  ["Merino Beanie", "merino-beanie"],
  ["Trail Runner Shoes", "trail-runner-shoes"],
  ["Canvas Tote", "canvas-tote"],
  ["Insulated Bottle", "insulated-bottle"],
  ["Rain Shell Jacket", "rain-shell-jacket"],
  ["Wool Hiking Socks", "wool-hiking-socks"],
].map(([title, handle], i) => ({
  admin_graphql_api_id: `gid://shopify/Product/${9_100_000_000 + i}`,
  title: title!,
  handle: handle!,
  status: "active",
}));
