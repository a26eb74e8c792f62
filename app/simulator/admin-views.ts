import { gid, moneyString, moneyV2, minor, parseSearch, requireScopes, type ResolverContext } from "./admin-common";
import type {
  BulkCreationRec,
  CollectionRec,
  CustomerRec,
  DiscountRec,
  GiftCardRec,
  ProductRec,
  RedeemCodeRec,
  ShopState,
  StoreCreditAccountRec,
  StoreCreditTransactionRec,
  SubscriptionRec,
  VariantRec,
} from "./store-state";

// The store's records as GraphQL objects of the Admin schema: plain objects
// with __typename, whose fields are values or functions of the field's
// arguments. A function that answers an array on a *Connection field is
// paged by the executor (first/after/last/before/reverse/sortKey), so views
// hand back whole lists. Fields a view leaves out are "not modelled": null
// when the schema allows it, empty for lists and connections, an error
// naming the field otherwise (admin-executor.ts).

type Obj = Record<string, unknown>;

const count = (n: number) => ({ __typename: "Count", count: n, precision: "EXACT" });
const stripTags = (html: string) => html.replace(/<[^>]*>/g, "").trim();
const currencyOf = (shop: ShopState) => shop.details.currencyCode;

export function shopView(ctx: ResolverContext): Obj {
  const { shop } = ctx;
  const d = shop.details;
  const url = new URL(d.primaryDomainUrl);
  return {
    __typename: "Shop",
    id: gid("Shop", String(70_000_000 + (hash(shop.domain) % 9_000_000))),
    name: d.name,
    email: d.email,
    contactEmail: d.contactEmail,
    myshopifyDomain: shop.domain,
    url: d.primaryDomainUrl,
    primaryDomain: {
      __typename: "Domain",
      id: gid("Domain", String(80_000_000 + (hash(url.host) % 9_000_000))),
      host: url.host,
      url: d.primaryDomainUrl,
      sslEnabled: url.protocol === "https:",
      localization: null,
      marketWebPresence: null,
    },
    currencyCode: d.currencyCode,
    enabledPresentmentCurrencies: [d.currencyCode],
    ianaTimezone: d.ianaTimezone,
    timezoneAbbreviation: d.timezoneAbbreviation,
    plan: {
      __typename: "ShopPlan",
      displayName: d.planDisplayName,
      publicDisplayName: d.planDisplayName,
      partnerDevelopment: false,
      shopifyPlus: false,
    },
    currencyFormats: {
      __typename: "CurrencyFormats",
      moneyFormat: d.moneyFormat,
      moneyWithCurrencyFormat: d.moneyWithCurrencyFormat,
      moneyInEmailsFormat: d.moneyFormat,
      moneyWithCurrencyInEmailsFormat: d.moneyWithCurrencyFormat,
    },
    billingAddress: { __typename: "ShopAddress", countryCodeV2: d.countryCode },
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    description: null,
    shopOwnerName: d.name,
    taxesIncluded: false,
    taxShipping: false,
    setupRequired: false,
    checkoutApiSupported: true,
    weightUnit: "KILOGRAMS",
  };
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

export function productView(ctx: ResolverContext, p: ProductRec): Obj {
  const currency = currencyOf(ctx.shop);
  const prices = p.variants.map((v) => minor(v.price, currency) ?? 0);
  const min = prices.length ? Math.min(...prices) : 0;
  const max = prices.length ? Math.max(...prices) : 0;
  return {
    __typename: "Product",
    id: gid("Product", p.id),
    legacyResourceId: p.id,
    title: p.title,
    handle: p.handle,
    status: p.status,
    vendor: p.vendor,
    productType: p.productType,
    tags: p.tags,
    description: stripTags(p.descriptionHtml),
    descriptionHtml: p.descriptionHtml,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    publishedAt: p.publishedAt,
    onlineStoreUrl:
      p.status === "ACTIVE" && p.publishedAt ? `${ctx.shop.details.primaryDomainUrl}/products/${p.handle}` : null,
    featuredImage: null,
    featuredMedia: null,
    totalInventory: p.variants.reduce((s, v) => s + v.inventoryQuantity, 0),
    tracksInventory: true,
    isGiftCard: false,
    hasOnlyDefaultVariant: p.variants.length === 1 && p.variants[0]!.title === "Default Title",
    hasOutOfStockVariants: p.variants.some((v) => v.inventoryQuantity <= 0),
    variantsCount: count(p.variants.length),
    priceRangeV2: {
      __typename: "ProductPriceRangeV2",
      minVariantPrice: moneyV2(min, currency),
      maxVariantPrice: moneyV2(max, currency),
    },
    variants: () => p.variants.map((v, i) => variantView(ctx, p, v, i)),
    collections: () =>
      ctx.shop.collections.filter((c) => p.collectionIds.includes(c.id)).map((c) => collectionView(ctx, c)),
    inCollection: ({ id }: { id: string }) => p.collectionIds.some((c) => gid("Collection", c) === id),
  };
}

export function variantView(ctx: ResolverContext, p: ProductRec, v: VariantRec, position: number): Obj {
  return {
    __typename: "ProductVariant",
    id: gid("ProductVariant", v.id),
    legacyResourceId: v.id,
    title: v.title,
    displayName: `${p.title} - ${v.title}`,
    price: v.price,
    compareAtPrice: null,
    sku: v.sku,
    barcode: null,
    position: position + 1,
    inventoryQuantity: v.inventoryQuantity,
    availableForSale: p.status === "ACTIVE" && v.inventoryQuantity > 0,
    taxable: true,
    image: null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    product: () => productView(ctx, p),
  };
}

export function collectionView(ctx: ResolverContext, c: CollectionRec): Obj {
  const members = () => ctx.shop.products.filter((p) => p.collectionIds.includes(c.id));
  return {
    __typename: "Collection",
    id: gid("Collection", c.id),
    legacyResourceId: c.id,
    title: c.title,
    handle: c.handle,
    updatedAt: c.updatedAt,
    description: "",
    descriptionHtml: "",
    sortOrder: "MANUAL",
    image: null,
    productsCount: () => count(members().length),
    products: () => members().map((p) => productView(ctx, p)),
    hasProduct: ({ id }: { id: string }) => members().some((p) => gid("Product", p.id) === id),
  };
}

export function customerView(ctx: ResolverContext, c: CustomerRec): Obj {
  const currency = currencyOf(ctx.shop);
  return {
    __typename: "Customer",
    id: gid("Customer", c.id),
    legacyResourceId: c.id,
    email: c.email,
    defaultEmailAddress: {
      __typename: "CustomerEmailAddress",
      emailAddress: c.email,
      marketingState: "NOT_SUBSCRIBED",
      validFormat: true,
      openTrackingLevel: "UNKNOWN",
      marketingUnsubscribeUrl: `${ctx.shop.details.primaryDomainUrl}/unsubscribe`,
      openTrackingUrl: `${ctx.shop.details.primaryDomainUrl}/open`,
      marketingOptInLevel: null,
      marketingUpdatedAt: null,
      sourceLocation: null,
    },
    firstName: c.firstName,
    lastName: c.lastName,
    displayName: [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    numberOfOrders: String(c.numberOfOrders),
    amountSpent: moneyV2(c.amountSpent, currency),
    tags: c.tags,
    state: "ENABLED",
    verifiedEmail: true,
    taxExempt: false,
    note: null,
    phone: null,
    locale: "en",
    storeCreditAccounts: ({ query }: { query?: string | null }) => {
      requireScopes(ctx, "storeCreditAccounts", ["read_store_credit_accounts"]);
      const currencyTerm = parseSearch(query).find((t) => t.field === "currency_code");
      return ctx.shop.storeCreditAccounts
        .filter((a) => a.customerId === c.id)
        .filter((a) => !currencyTerm || a.currency === currencyTerm.value.toUpperCase())
        .map((a) => storeCreditAccountView(ctx, a));
    },
  };
}

export function appView(ctx: ResolverContext): Obj {
  return {
    __typename: "App",
    id: gid("App", ctx.app.id),
    title: ctx.app.title,
    handle: ctx.app.handle,
    apiKey: ctx.app.apiKey,
    embedded: true,
    developerName: "Affiliate & Referral",
    isPostPurchaseAppInUse: false,
    published: false,
    previouslyInstalled: false,
  };
}

function discountStatus(d: DiscountRec, now: Date) {
  if (Date.parse(d.startsAt) > now.getTime()) return "SCHEDULED";
  if (d.endsAt && Date.parse(d.endsAt) <= now.getTime()) return "EXPIRED";
  return "ACTIVE";
}

function discountSummary(ctx: ResolverContext, d: DiscountRec) {
  const currency = currencyOf(ctx.shop);
  if (d.value.type === "free_shipping") return "Free shipping on all products";
  const value =
    d.value.type === "percentage"
      ? `${Math.round(d.value.percentage * 10000) / 100}% off`
      : `${currency} ${moneyString(minor(d.value.amount, currency) ?? 0, currency)} off${d.value.appliesOnEachItem ? " each item" : ""}`;
  const target =
    "all" in d.items ? "entire order" : "productIds" in d.items ? "specific products" : "specific collections";
  return `${value} ${target}`;
}

export function discountNodeView(ctx: ResolverContext, d: DiscountRec): Obj {
  return {
    __typename: "DiscountCodeNode",
    id: gid("DiscountCodeNode", d.id),
    codeDiscount: () =>
      d.value.type === "free_shipping" ? discountCodeFreeShippingView(ctx, d) : discountCodeBasicView(ctx, d),
  };
}

function discountCodeFreeShippingView(ctx: ResolverContext, d: DiscountRec): Obj {
  const { customerGets: _gets, discountClass: _class, ...common } = discountCodeBasicView(ctx, d);
  return {
    ...common,
    __typename: "DiscountCodeFreeShipping",
    discountClass: "SHIPPING",
    discountClasses: ["SHIPPING"],
    appliesOnOneTimePurchase: true,
    appliesOnSubscription: false,
    destinationSelection: { __typename: "DiscountCountryAll", allCountries: true },
    maximumShippingPrice: null,
  };
}

function discountCodeBasicView(ctx: ResolverContext, d: DiscountRec): Obj {
  const currency = currencyOf(ctx.shop);
  const productClass = !("all" in d.items);
  const customers = d.customerIds
    ? () =>
        d.customerIds!.flatMap((id) => {
          const c = ctx.shop.customers.find((x) => x.id === id);
          return c ? [customerView(ctx, c)] : [];
        })
    : null;
  return {
    __typename: "DiscountCodeBasic",
    title: d.title,
    status: discountStatus(d, ctx.now),
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    usageLimit: d.usageLimit,
    appliesOncePerCustomer: d.appliesOncePerCustomer,
    asyncUsageCount: d.codes.reduce((s, c) => s + c.usageCount, 0),
    codes: () => d.codes.map((c) => redeemCodeView(ctx, c)),
    codesCount: count(d.codes.length),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    summary: discountSummary(ctx, d),
    shortSummary: discountSummary(ctx, d),
    tags: d.tags,
    discountClass: productClass ? "PRODUCT" : "ORDER",
    discountClasses: [productClass ? "PRODUCT" : "ORDER"],
    hasTimelineComment: false,
    recurringCycleLimit: null,
    shareableUrls: [],
    totalSales: null,
    combinesWith: {
      __typename: "DiscountCombinesWith",
      ...d.combinesWith,
      productDiscountsWithTagsOnSameCartLine: null,
    },
    minimumRequirement: d.minimumSubtotal
      ? {
          __typename: "DiscountMinimumSubtotal",
          greaterThanOrEqualToSubtotal: moneyV2(minor(d.minimumSubtotal, currency) ?? 0, currency),
        }
      : d.minimumQuantity
        ? { __typename: "DiscountMinimumQuantity", greaterThanOrEqualToQuantity: String(d.minimumQuantity) }
        : null,
    context: customers
      ? { __typename: "DiscountCustomers", customers }
      : { __typename: "DiscountBuyerSelectionAll", all: "ALL" },
    customerSelection: customers
      ? { __typename: "DiscountCustomers", customers }
      : { __typename: "DiscountCustomerAll", allCustomers: true },
    customerGets: {
      __typename: "DiscountCustomerGets",
      appliesOnOneTimePurchase: true,
      appliesOnSubscription: false,
      value:
        d.value.type === "percentage"
          ? { __typename: "DiscountPercentage", percentage: d.value.percentage }
          : d.value.type === "amount"
            ? {
                __typename: "DiscountAmount",
                amount: moneyV2(minor(d.value.amount, currency) ?? 0, currency),
                appliesOnEachItem: d.value.appliesOnEachItem,
              }
            : null,
      items:
        "all" in d.items
          ? { __typename: "AllDiscountItems", allItems: true }
          : "productIds" in d.items
            ? {
                __typename: "DiscountProducts",
                products: () =>
                  ctx.shop.products
                    .filter((p) => (d.items as { productIds: string[] }).productIds.includes(p.id))
                    .map((p) => productView(ctx, p)),
                productVariants: () => [],
              }
            : {
                __typename: "DiscountCollections",
                collections: () =>
                  ctx.shop.collections
                    .filter((c) => (d.items as { collectionIds: string[] }).collectionIds.includes(c.id))
                    .map((c) => collectionView(ctx, c)),
              },
    },
  };
}

export function redeemCodeView(ctx: ResolverContext, c: RedeemCodeRec): Obj {
  return {
    __typename: "DiscountRedeemCode",
    id: gid("DiscountRedeemCode", c.id),
    code: c.code,
    asyncUsageCount: c.usageCount,
    createdBy: c.createdByApp ? appView(ctx) : null,
  };
}

/**
 * A bulk code creation. Shopify imports the codes in the background: the
 * mutation's answer says done: false, and a later read finds it done.
 */
export function bulkCreationView(ctx: ResolverContext, b: BulkCreationRec, justCreated = false): Obj {
  const failed = b.codes.filter((c) => c.errors.length).length;
  return {
    __typename: "DiscountRedeemCodeBulkCreation",
    id: gid("DiscountRedeemCodeBulkCreation", b.id),
    createdAt: b.createdAt,
    done: !justCreated,
    codesCount: b.codes.length,
    importedCount: justCreated ? 0 : b.codes.length - failed,
    failedCount: justCreated ? 0 : failed,
    discountCode: () => {
      const d = ctx.shop.discounts.find((x) => x.id === b.discountId);
      return d ? discountNodeView(ctx, d) : null;
    },
    codes: () =>
      justCreated
        ? []
        : b.codes.map((c) => {
            const d = ctx.shop.discounts.find((x) => x.id === b.discountId);
            const rec = d?.codes.find((r) => r.id === c.redeemCodeId);
            return {
              __typename: "DiscountRedeemCodeBulkCreationCode",
              code: c.code,
              discountRedeemCode: rec ? redeemCodeView(ctx, rec) : null,
              errors: c.errors.map((e) => ({ __typename: "DiscountUserError", ...e, extraInfo: null })),
            };
          }),
  };
}

export function storeCreditAccountView(ctx: ResolverContext, a: StoreCreditAccountRec): Obj {
  return {
    __typename: "StoreCreditAccount",
    id: gid("StoreCreditAccount", a.id),
    balance: moneyV2(a.balance, a.currency),
    owner: () => {
      const c = ctx.shop.customers.find((x) => x.id === a.customerId);
      return c ? customerView(ctx, c) : null;
    },
    // Shopify's `type` filter (credit, debit, debit_revert, expiration); the
    // simulator keeps credits and debits only.
    transactions: ({ query }: { query?: string | null }) => {
      const types = parseSearch(query)
        .filter((t) => t.field === "type" && !t.negated)
        .map((t) => t.value.toLowerCase());
      return a.transactions
        .filter((t) => !types.length || types.includes(t.kind))
        .map((t) => storeCreditTransactionView(ctx, a, t));
    },
  };
}

export function storeCreditTransactionView(
  ctx: ResolverContext,
  a: StoreCreditAccountRec,
  t: StoreCreditTransactionRec,
): Obj {
  return {
    __typename: t.kind === "credit" ? "StoreCreditAccountCreditTransaction" : "StoreCreditAccountDebitTransaction",
    id: gid(t.kind === "credit" ? "StoreCreditAccountCreditTransaction" : "StoreCreditAccountDebitTransaction", t.id),
    amount: moneyV2(t.amount, a.currency),
    balanceAfterTransaction: moneyV2(t.balanceAfter, a.currency),
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    remainingAmount: moneyV2(t.kind === "credit" ? t.amount : 0, a.currency),
    event: "ADJUSTMENT",
    origin: null,
    account: () => storeCreditAccountView(ctx, a),
  };
}

export function subscriptionView(ctx: ResolverContext, s: SubscriptionRec): Obj {
  return {
    __typename: "AppSubscription",
    id: gid("AppSubscription", s.id),
    name: s.name,
    status: s.status,
    test: s.test,
    trialDays: s.trialDays,
    returnUrl: s.returnUrl,
    createdAt: s.createdAt,
    currentPeriodEnd: s.currentPeriodEnd,
    lineItems: s.lineItems.map((li) => ({
      __typename: "AppSubscriptionLineItem",
      id: gid("AppSubscriptionLineItem", `${li.id}?v=1&index=0`),
      usageRecords: () => [],
      plan: {
        __typename: "AppPlanV2",
        pricingDetails:
          li.kind === "recurring"
            ? {
                __typename: "AppRecurringPricing",
                price: { __typename: "MoneyV2", amount: decimalFromString(li.price), currencyCode: li.currency },
                interval: li.interval,
                discount: null,
                planHandle: null,
              }
            : {
                __typename: "AppUsagePricing",
                cappedAmount: {
                  __typename: "MoneyV2",
                  amount: decimalFromString(li.cappedAmount),
                  currencyCode: li.currency,
                },
                balanceUsed: { __typename: "MoneyV2", amount: "0.0", currencyCode: li.currency },
                interval: "EVERY_30_DAYS",
                terms: li.terms,
              },
      },
    })),
  };
}

function decimalFromString(amount: string) {
  const n = Number(amount);
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

export function appInstallationView(ctx: ResolverContext): Obj {
  const mine = ctx.shop.subscriptions;
  return {
    __typename: "AppInstallation",
    id: gid("AppInstallation", String(60_000_000 + (hash(ctx.shop.domain) % 9_000_000))),
    activeSubscriptions: () => mine.filter((s) => s.status === "ACTIVE").map((s) => subscriptionView(ctx, s)),
    subscriptions: () => mine.filter((s) => s.status === "ACTIVE").map((s) => subscriptionView(ctx, s)),
    allSubscriptions: () => mine.map((s) => subscriptionView(ctx, s)),
    oneTimePurchases: () => [],
    credits: () => [],
    revenueAttributionRecords: () => [],
    accessScopes: ctx.shop.scopes.map((handle) => ({ __typename: "AccessScope", handle, description: handle })),
    app: () => appView(ctx),
    launchUrl: `https://admin.shopify.com/store/${ctx.shop.domain.replace(/\.myshopify\.com$/, "")}/apps/${ctx.app.handle}`,
    uninstallUrl: null,
    channel: null,
    publication: null,
    metafield: null,
    metafields: () => [],
  };
}

export function webPixelView(_ctx: ResolverContext, p: { id: string; settings: string }): Obj {
  return { __typename: "WebPixel", id: gid("WebPixel", p.id), settings: p.settings };
}

export function giftCardView(ctx: ResolverContext, g: GiftCardRec): Obj {
  const customer = () => {
    const c = g.customerId ? ctx.shop.customers.find((x) => x.id === g.customerId) : undefined;
    return c ? customerView(ctx, c) : null;
  };
  return {
    __typename: "GiftCard",
    id: gid("GiftCard", g.id),
    balance: moneyV2(g.balance, g.currency),
    initialValue: moneyV2(g.initialValue, g.currency),
    createdAt: g.createdAt,
    updatedAt: g.createdAt,
    deactivatedAt: null,
    enabled: true,
    isRedeemable: true,
    expiresOn: g.expiresOn,
    // Shopify never shows a card's code again after creation, only its end.
    lastCharacters: g.code.slice(-4),
    maskedCode: `•••• •••• •••• ${g.code.slice(-4)}`,
    note: g.note,
    templateSuffix: null,
    crossCurrencyRedemptionStrategy: "MARKET_FX",
    customer,
    recipientAttributes: null,
    lineItem: null,
    order: null,
  };
}
