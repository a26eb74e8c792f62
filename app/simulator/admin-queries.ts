import {
  argumentError,
  dateMatch,
  gid,
  hasScope,
  NODE_SCOPES,
  parseGid,
  requireScopes,
  search,
  textMatch,
  type ResolverContext,
  type SearchFields,
} from "./admin-common";
import {
  appInstallationView,
  bulkCreationView,
  collectionView,
  customerView,
  discountNodeView,
  giftCardView,
  productView,
  shopView,
  storeCreditAccountView,
  subscriptionView,
  variantView,
  webPixelView,
} from "./admin-views";
import type { CollectionRec, CustomerRec, GiftCardRec, ProductRec } from "./store-state";

// The query root fields the simulated store answers. Each checks the access
// scopes Shopify requires for it, then reads the shop's state.

type Args = Record<string, any>;

const productSearch: SearchFields<ProductRec> = {
  title: (p, t) => textMatch(p.title, t.value),
  handle: (p, t) => textMatch(p.handle, t.value),
  status: (p, t) => t.value.split(",").some((s) => textMatch(p.status, s)),
  product_type: (p, t) => textMatch(p.productType, t.value),
  vendor: (p, t) => textMatch(p.vendor, t.value),
  tag: (p, t) => p.tags.some((tag) => textMatch(tag, t.value)),
  sku: (p, t) => p.variants.some((v) => textMatch(v.sku, t.value)),
  id: (p, t) => p.id === t.value,
  updated_at: (p, t) => dateMatch(p.updatedAt, t),
  created_at: (p, t) => dateMatch(p.createdAt, t),
};

const customerSearch: SearchFields<CustomerRec> = {
  email: (c, t) => textMatch(c.email, t.value),
  first_name: (c, t) => textMatch(c.firstName, t.value),
  last_name: (c, t) => textMatch(c.lastName, t.value),
  id: (c, t) => c.id === t.value,
  tag: (c, t) => c.tags.some((tag) => textMatch(tag, t.value)),
  updated_at: (c, t) => dateMatch(c.updatedAt, t),
  created_at: (c, t) => dateMatch(c.createdAt, t),
};

// Shopify's default (free-text) search of gift cards includes their codes.
const giftCardSearch: SearchFields<GiftCardRec> = {
  id: (g, t) => g.id === t.value,
  created_at: (g, t) => dateMatch(g.createdAt, t),
  customer_id: (g, t) => g.customerId === t.value,
  source: (_g, t) => textMatch("api_client", t.value),
  status: (_g, t) => textMatch("enabled", t.value),
};

const collectionSearch: SearchFields<CollectionRec> = {
  title: (c, t) => textMatch(c.title, t.value),
  handle: (c, t) => textMatch(c.handle, t.value),
  id: (c, t) => c.id === t.value,
  updated_at: (c, t) => dateMatch(c.updatedAt, t),
};

function idOf(ctx: ResolverContext, value: unknown, type: string): string | null {
  const parsed = parseGid(value);
  if (!parsed) throw argumentError(`Invalid global id '${String(value)}'`, "argumentLiteralsIncompatible");
  return parsed.type === type ? parsed.id : null;
}

/** Any object by its GID, or null (unknown, or of a type the simulator does not keep). */
export function findNode(ctx: ResolverContext, id: unknown): Record<string, unknown> | null {
  const parsed = parseGid(id);
  if (!parsed) throw argumentError(`Invalid global id '${String(id)}'`, "argumentLiteralsIncompatible");
  const scope = NODE_SCOPES[parsed.type];
  if (scope && !hasScope(ctx.shop.scopes, scope)) return null;
  const { shop } = ctx;
  switch (parsed.type) {
    case "Product": {
      const p = shop.products.find((x) => x.id === parsed.id);
      return p ? productView(ctx, p) : null;
    }
    case "ProductVariant": {
      for (const p of shop.products) {
        const i = p.variants.findIndex((v) => v.id === parsed.id);
        if (i >= 0) return variantView(ctx, p, p.variants[i]!, i);
      }
      return null;
    }
    case "Collection": {
      const c = shop.collections.find((x) => x.id === parsed.id);
      return c ? collectionView(ctx, c) : null;
    }
    case "Customer": {
      const c = shop.customers.find((x) => x.id === parsed.id);
      return c ? customerView(ctx, c) : null;
    }
    case "DiscountCodeNode": {
      const d = shop.discounts.find((x) => x.id === parsed.id);
      return d ? discountNodeView(ctx, d) : null;
    }
    case "DiscountRedeemCodeBulkCreation": {
      const b = shop.bulkCreations.find((x) => x.id === parsed.id);
      return b ? bulkCreationView(ctx, b) : null;
    }
    case "StoreCreditAccount": {
      const a = shop.storeCreditAccounts.find((x) => x.id === parsed.id);
      return a ? storeCreditAccountView(ctx, a) : null;
    }
    case "GiftCard": {
      const g = (shop.giftCards ?? []).find((x) => x.id === parsed.id);
      return g ? giftCardView(ctx, g) : null;
    }
    case "AppSubscription": {
      const s = shop.subscriptions.find((x) => x.id === parsed.id);
      return s ? subscriptionView(ctx, s) : null;
    }
    case "WebPixel":
      return shop.webPixel?.id === parsed.id ? webPixelView(ctx, shop.webPixel) : null;
    default:
      return null;
  }
}

export function queryRoot(ctx: ResolverContext): Record<string, unknown> {
  const { shop } = ctx;
  return {
    shop: () => shopView(ctx),
    currentAppInstallation: () => appInstallationView(ctx),
    node: ({ id }: Args) => findNode(ctx, id),
    nodes: ({ ids }: Args) => {
      if ((ids as unknown[]).length > 250)
        throw argumentError("The maximum number of ids that can be requested is 250.", "MAX_INPUT_SIZE_EXCEEDED");
      return (ids as unknown[]).map((id) => findNode(ctx, id));
    },
    products: (args: Args) => {
      requireScopes(ctx, "products");
      return search(ctx, "products", shop.products, args.query, productSearch, (p) => `${p.title} ${p.handle}`).map(
        (p) => productView(ctx, p),
      );
    },
    productsCount: (args: Args) => {
      requireScopes(ctx, "productsCount");
      const n = search(ctx, "productsCount", shop.products, args.query, productSearch, (p) => p.title).length;
      return { __typename: "Count", count: n, precision: "EXACT" };
    },
    product: ({ id }: Args) => {
      requireScopes(ctx, "product");
      const want = idOf(ctx, id, "Product");
      const p = shop.products.find((x) => x.id === want);
      return p ? productView(ctx, p) : null;
    },
    productVariant: ({ id }: Args) => {
      requireScopes(ctx, "productVariant");
      idOf(ctx, id, "ProductVariant");
      return findNode(ctx, id);
    },
    collections: (args: Args) => {
      requireScopes(ctx, "collections");
      return search(ctx, "collections", shop.collections, args.query, collectionSearch, (c) => c.title).map((c) =>
        collectionView(ctx, c),
      );
    },
    collection: ({ id }: Args) => {
      requireScopes(ctx, "collection");
      const want = idOf(ctx, id, "Collection");
      const c = shop.collections.find((x) => x.id === want);
      return c ? collectionView(ctx, c) : null;
    },
    customers: (args: Args) => {
      requireScopes(ctx, "customers");
      return search(
        ctx,
        "customers",
        shop.customers,
        args.query,
        customerSearch,
        (c) => `${c.firstName} ${c.lastName} ${c.email}`,
      ).map((c) => customerView(ctx, c));
    },
    customer: ({ id }: Args) => {
      requireScopes(ctx, "customer");
      const want = idOf(ctx, id, "Customer");
      const c = shop.customers.find((x) => x.id === want);
      return c ? customerView(ctx, c) : null;
    },
    customerByIdentifier: ({ identifier }: Args) => {
      requireScopes(ctx, "customerByIdentifier");
      let c: CustomerRec | undefined;
      if (identifier.emailAddress)
        c = shop.customers.find((x) => x.email.toLowerCase() === String(identifier.emailAddress).toLowerCase());
      else if (identifier.id) c = shop.customers.find((x) => gid("Customer", x.id) === identifier.id);
      else throw argumentError("The simulator finds customers by emailAddress or id only.", "SIMULATOR_UNSUPPORTED");
      return c ? customerView(ctx, c) : null;
    },
    codeDiscountNodeByCode: ({ code }: Args) => {
      requireScopes(ctx, "codeDiscountNodeByCode");
      const wanted = String(code).trim().toLowerCase();
      const d = shop.discounts.find((x) => x.codes.some((c) => c.code.toLowerCase() === wanted));
      return d ? discountNodeView(ctx, d) : null;
    },
    codeDiscountNode: ({ id }: Args) => {
      requireScopes(ctx, "codeDiscountNode");
      const want = idOf(ctx, id, "DiscountCodeNode");
      const d = shop.discounts.find((x) => x.id === want);
      return d ? discountNodeView(ctx, d) : null;
    },
    discountRedeemCodeBulkCreation: ({ id }: Args) => {
      requireScopes(ctx, "discountRedeemCodeBulkCreation");
      const want = idOf(ctx, id, "DiscountRedeemCodeBulkCreation");
      const b = shop.bulkCreations.find((x) => x.id === want);
      return b ? bulkCreationView(ctx, b) : null;
    },
    giftCards: (args: Args) => {
      requireScopes(ctx, "giftCards");
      return search(
        ctx,
        "giftCards",
        shop.giftCards ?? [],
        args.query,
        giftCardSearch,
        (g) => `${g.code} ${g.note ?? ""}`,
      ).map((g) => giftCardView(ctx, g));
    },
    giftCard: ({ id }: Args) => {
      requireScopes(ctx, "giftCard");
      const want = idOf(ctx, id, "GiftCard");
      const g = (shop.giftCards ?? []).find((x) => x.id === want);
      return g ? giftCardView(ctx, g) : null;
    },
    storeCreditAccount: ({ id }: Args) => {
      requireScopes(ctx, "storeCreditAccount");
      const want = idOf(ctx, id, "StoreCreditAccount");
      const a = shop.storeCreditAccounts.find((x) => x.id === want);
      return a ? storeCreditAccountView(ctx, a) : null;
    },
    webPixel: ({ id }: Args) => {
      requireScopes(ctx, "webPixel");
      const pixel = shop.webPixel;
      if (!pixel || (id && id !== gid("WebPixel", pixel.id))) return null;
      return webPixelView(ctx, pixel);
    },
  };
}
