import type { ShopifyCollectionLike, ShopifyProductLike } from "../portal/product-catalogue.server";

// The demo shop's products, as the portal shows them. The store simulator's
// demo store sells the same products (same ids, titles and handles), with
// prices, variants and collections of its own (app/simulator/store-state.ts).
export const DEMO_PRODUCTS: ShopifyProductLike[] = [
  ["Merino Beanie", "merino-beanie", "39.00"],
  ["Trail Runner Shoes", "trail-runner-shoes", "129.00"],
  ["Canvas Tote", "canvas-tote", "45.00"],
  ["Insulated Bottle", "insulated-bottle", "32.00"],
  ["Rain Shell Jacket", "rain-shell-jacket", "189.00"],
  ["Wool Hiking Socks", "wool-hiking-socks", "19.00"],
].map(([title, handle, price], i) => ({
  admin_graphql_api_id: `gid://shopify/Product/${9_100_000_000 + i}`,
  title: title!,
  handle: handle!,
  status: "active",
  // The simulator's demo store sells them at these prices (its lowest variant).
  variants: [{ price: price! }],
}));

/** The demo shop's collections (the simulator's demo store has the same ids and titles). */
export const DEMO_COLLECTIONS: ShopifyCollectionLike[] = [
  ["summer", "Summer"],
  ["accessories", "Accessories"],
  ["footwear", "Footwear"],
  ["outerwear", "Outerwear"],
].map(([handle, title], i) => ({
  gid: `gid://shopify/Collection/${9_200_000_000 + i}`,
  handle: handle!,
  title: title!,
  imageUrl: null,
}));
