import { randomUUID } from "node:crypto";
import { z } from "zod";
import { dbProvider, getDb, type Db } from "../../db.server";
import { prismaBulk } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import { currencyExponent } from "../../lib/money";
import { lowestPriceMinor } from "./product-price";

// A shop's product catalogue as the portal needs it (link builder, the
// affiliate products page), kept in the Product table: read from the Admin
// API at install (catalogue-sync.server.ts), then kept current by products/*
// webhooks; the demo seed fills it too. upsertProducts is the one entry
// point, with Shopify's product shape.

export interface ShopifyProductLike {
  admin_graphql_api_id: string;
  title: string;
  handle: string;
  status?: string | null;
  image?: { src?: string | null } | null;
  // Decimal strings in the shop's currency; the lowest is the product's price.
  variants?: { price?: string | null }[] | null;
}

/** products/create and products/update bodies, as far as the catalogue reads them. */
export const productPayloadSchema = z.object({
  admin_graphql_api_id: z.string().min(1).max(255),
  title: z.string(),
  handle: z.string(),
  status: z.string().nullish(),
  image: z.object({ src: z.string().nullish() }).nullish(),
  variants: z
    .array(z.object({ price: z.union([z.string(), z.number().transform(String)]).nullish() }))
    .max(2048)
    .nullish(),
});

/**
 * Inserts or updates products by GID, in one statement (a catalogue sync
 * writes pages of a hundred; one round trip each keeps it quick on
 * PostgreSQL). Every row's updatedAt is set, seen or changed, which is how a
 * full sync tells the products Shopify no longer has.
 */
export async function upsertProducts(shopId: string, products: ShopifyProductLike[], db: Tx | Db = getDb()) {
  if (products.length === 0) return;
  const now = new Date();
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { currency: true } });
  const exponent = currencyExponent(shop?.currency ?? "USD");
  // One row per GID: a statement may not update the same row twice.
  const byGid = new Map(products.map((p) => [p.admin_graphql_api_id, p]));
  const rows = [...byGid.values()].map((p) => ({
    id: randomUUID(),
    shopId,
    gid: p.admin_graphql_api_id.slice(0, 255),
    title: p.title.slice(0, 255),
    handle: p.handle.slice(0, 255),
    status: p.status === "draft" || p.status === "archived" ? p.status : "active",
    imageUrl: p.image?.src ?? null,
    price: lowestPriceMinor(
      (p.variants ?? []).map((v) => v.price),
      exponent,
    ),
    createdAt: now,
    updatedAt: now,
  }));
  await prismaBulk(db, dbProvider()).insertRows("Product", rows, {
    onConflict: { key: ["shopId", "gid"], update: ["title", "handle", "status", "imageUrl", "price", "updatedAt"] },
  });
}

export async function deleteProduct(shopId: string, gid: string, db: Tx | Db = getDb()) {
  await db.product.deleteMany({ where: { shopId, gid } });
}

export interface ShopifyCollectionLike {
  gid: string;
  title: string;
  handle: string;
  imageUrl: string | null;
}

/** Inserts or updates collections by GID, in one statement; every row's updatedAt is set (as for products). */
export async function upsertCollections(shopId: string, collections: ShopifyCollectionLike[], db: Tx | Db = getDb()) {
  if (collections.length === 0) return;
  const now = new Date();
  const byGid = new Map(collections.map((c) => [c.gid, c]));
  const rows = [...byGid.values()].map((c) => ({
    id: randomUUID(),
    shopId,
    gid: c.gid.slice(0, 255),
    title: c.title.slice(0, 255),
    imageUrl: c.imageUrl,
    createdAt: now,
    updatedAt: now,
  }));
  await prismaBulk(db, dbProvider()).insertRows("Collection", rows, {
    onConflict: { key: ["shopId", "gid"], update: ["title", "imageUrl", "updatedAt"] },
  });
}
