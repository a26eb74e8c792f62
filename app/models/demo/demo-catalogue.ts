import type { ShopifyProductLike } from "../portal/product-catalogue.server";

// The demo shop's products, as the portal shows them. The store simulator's
// demo store sells the same products (same ids, titles and handles), with
// prices, variants and collections of its own (app/simulator/store-state.ts).
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
