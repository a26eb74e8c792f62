import { gid } from "./admin-common";
import { CheckoutError, serializeBody } from "./orders";
import { nextId, type ProductRec, type ShopState, type StoreState } from "./store-state";

// Catalogue changes a merchant makes in the Shopify admin, and the
// products/create, products/update and products/delete bodies Shopify sends
// for them (its REST product shape; ids as bare numbers).

export interface ProductChange {
  title?: string;
  handle?: string;
  price?: string;
  status?: "active" | "draft" | "archived";
  // Collection handles the product belongs to (replaces the list).
  collections?: string[];
}

const bare = (id: string) => `@@${id}`;

function handleOf(title: string) {
  return title
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function collectionIds(shop: ShopState, handles: string[]) {
  return handles.map((h) => {
    const c = shop.collections.find((x) => x.handle === h || gid("Collection", x.id) === h);
    if (!c)
      throw new CheckoutError(
        `No collection "${h}" (collections: ${shop.collections.map((x) => x.handle).join(", ")}).`,
      );
    return c.id;
  });
}

export function findProduct(shop: ShopState, wanted: string): ProductRec {
  const p = shop.products.find((x) => x.handle === wanted || x.id === wanted || gid("Product", x.id) === wanted);
  if (!p) throw new CheckoutError(`No product "${wanted}" in the store.`);
  return p;
}

export function createProduct(state: StoreState, shop: ShopState, change: ProductChange, now = new Date()): ProductRec {
  if (!change.title?.trim()) throw new CheckoutError("A product needs a title (--title).");
  const handle = change.handle ?? handleOf(change.title);
  if (shop.products.some((p) => p.handle === handle)) throw new CheckoutError(`Handle "${handle}" is taken.`);
  const at = now.toISOString();
  const p: ProductRec = {
    id: nextId(state),
    title: change.title.trim(),
    handle,
    status: (change.status ?? "active").toUpperCase() as ProductRec["status"],
    vendor: shop.details.name,
    productType: "",
    tags: [],
    descriptionHtml: "",
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    variants: [
      { id: nextId(state), title: "Default Title", price: change.price ?? "10.00", sku: "", inventoryQuantity: 100 },
    ],
    collectionIds: change.collections ? collectionIds(shop, change.collections) : [],
  };
  shop.products.push(p);
  return p;
}

export function updateProduct(shop: ShopState, p: ProductRec, change: ProductChange, now = new Date()): ProductRec {
  const ids = change.collections ? collectionIds(shop, change.collections) : p.collectionIds;
  if (change.handle && shop.products.some((x) => x !== p && x.handle === change.handle))
    throw new CheckoutError(`Handle "${change.handle}" is taken.`);
  if (change.title !== undefined) p.title = change.title;
  if (change.handle) p.handle = change.handle;
  if (change.status) p.status = change.status.toUpperCase() as ProductRec["status"];
  if (change.price) for (const v of p.variants) v.price = change.price;
  p.collectionIds = ids;
  p.updatedAt = now.toISOString();
  return p;
}

export function deleteProduct(shop: ShopState, p: ProductRec) {
  shop.products = shop.products.filter((x) => x !== p);
}

/** The products/create and products/update body. */
export function productPayload(p: ProductRec) {
  return serializeBody({
    admin_graphql_api_id: gid("Product", p.id),
    body_html: p.descriptionHtml,
    created_at: p.createdAt,
    handle: p.handle,
    id: bare(p.id),
    product_type: p.productType,
    published_at: p.publishedAt,
    template_suffix: null,
    title: p.title,
    updated_at: p.updatedAt,
    vendor: p.vendor,
    status: p.status.toLowerCase(),
    published_scope: "web",
    tags: p.tags.join(", "),
    variants: p.variants.map((v, i) => ({
      admin_graphql_api_id: gid("ProductVariant", v.id),
      barcode: null,
      compare_at_price: null,
      created_at: p.createdAt,
      id: bare(v.id),
      inventory_policy: "deny",
      position: i + 1,
      price: v.price,
      product_id: bare(p.id),
      sku: v.sku,
      taxable: true,
      title: v.title,
      updated_at: p.updatedAt,
      option1: v.title,
      option2: null,
      option3: null,
      image_id: null,
      inventory_item_id: null,
      inventory_quantity: v.inventoryQuantity,
      old_inventory_quantity: v.inventoryQuantity,
    })),
    options: [
      {
        name: p.variants.length > 1 ? "Size" : "Title",
        id: bare(String(Number(p.id) + 1)),
        product_id: bare(p.id),
        position: 1,
        values: p.variants.map((v) => v.title),
      },
    ],
    images: [],
    image: null,
    media: [],
    variant_gids: p.variants.map((v) => ({
      admin_graphql_api_id: gid("ProductVariant", v.id),
      updated_at: p.updatedAt,
    })),
    has_variants_that_requires_components: false,
    category: null,
  });
}

/** The products/delete body. */
export function productDeletePayload(p: ProductRec) {
  return serializeBody({ id: bare(p.id) });
}
