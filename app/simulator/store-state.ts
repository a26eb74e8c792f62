import type { ContractRec } from "./subscription-contracts";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { demoAffiliates } from "../models/demo/demo-people";
import { DEMO_ADVOCATES } from "../models/referrals/demo-advocates";
import { DEMO_COLLECTIONS, DEMO_PRODUCTS } from "../models/demo/demo-catalogue";

// What the simulated store knows, per shop: catalogue, customers, discount
// codes, store credit, the app's subscriptions and web pixel, and the orders
// placed in it. Plain JSON, so the `npm run simulate -- store` process can
// keep it in a file across restarts; tests keep it in memory. Money is kept
// as Shopify's decimal strings ("39.00") where Shopify shows it so, and as
// integer minor units where the store does arithmetic with it.

export interface ShopDetails {
  name: string;
  email: string;
  contactEmail: string;
  currencyCode: string;
  ianaTimezone: string;
  timezoneAbbreviation: string;
  primaryDomainUrl: string;
  planDisplayName: string;
  moneyFormat: string;
  moneyWithCurrencyFormat: string;
  countryCode: string;
  createdAt: string;
}

export interface VariantRec {
  id: string;
  title: string;
  price: string;
  sku: string;
  inventoryQuantity: number;
}

export interface ProductRec {
  id: string;
  title: string;
  handle: string;
  status: "ACTIVE" | "DRAFT" | "ARCHIVED";
  vendor: string;
  productType: string;
  tags: string[];
  descriptionHtml: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  variants: VariantRec[];
  collectionIds: string[];
}

export interface CollectionRec {
  id: string;
  title: string;
  handle: string;
  updatedAt: string;
}

export interface CustomerRec {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string;
  updatedAt: string;
  numberOfOrders: number;
  // Minor units of the shop currency.
  amountSpent: number;
  tags: string[];
}

export interface RedeemCodeRec {
  id: string;
  code: string;
  usageCount: number;
  createdByApp: boolean;
}

export type DiscountValue =
  | { type: "percentage"; percentage: number }
  | { type: "amount"; amount: string; appliesOnEachItem: boolean }
  // discountCodeFreeShippingCreate: the order's shipping is free (the
  // simulated orders have no shipping lines, so it takes nothing off them).
  | { type: "free_shipping" };

export interface DiscountRec {
  id: string;
  title: string;
  codes: RedeemCodeRec[];
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
  appliesOncePerCustomer: boolean;
  value: DiscountValue;
  items: { all: true } | { productIds: string[] } | { collectionIds: string[] };
  customerIds: string[] | null; // null: every buyer
  minimumSubtotal: string | null;
  minimumQuantity: number | null;
  combinesWith: { orderDiscounts: boolean; productDiscounts: boolean; shippingDiscounts: boolean };
  tags: string[];
  createdByApp: boolean;
  usedByCustomerIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface BulkCreationRec {
  id: string;
  discountId: string;
  createdAt: string;
  codes: { code: string; redeemCodeId: string | null; errors: { code: string; message: string; field: string[] }[] }[];
}

export interface StoreCreditTransactionRec {
  id: string;
  kind: "credit" | "debit";
  amount: number; // minor units, positive for a credit, negative for a debit
  balanceAfter: number;
  createdAt: string;
  expiresAt: string | null;
}

export interface StoreCreditAccountRec {
  id: string;
  customerId: string;
  currency: string;
  balance: number; // minor units
  transactions: StoreCreditTransactionRec[];
}

export interface GiftCardRec {
  id: string;
  code: string; // as issued, upper case; Shopify compares codes case-insensitively
  currency: string;
  initialValue: number; // minor units
  balance: number; // minor units
  note: string | null;
  customerId: string | null;
  expiresOn: string | null;
  createdAt: string;
}

export type SubscriptionLineItemRec =
  | { id: string; kind: "recurring"; price: string; currency: string; interval: "EVERY_30_DAYS" | "ANNUAL" }
  | { id: string; kind: "usage"; cappedAmount: string; currency: string; terms: string };

export interface SubscriptionRec {
  id: string;
  name: string;
  status: "PENDING" | "ACTIVE" | "DECLINED" | "CANCELLED" | "EXPIRED" | "FROZEN";
  test: boolean;
  trialDays: number;
  returnUrl: string;
  createdAt: string;
  currentPeriodEnd: string | null;
  lineItems: SubscriptionLineItemRec[];
  replacementBehavior: string;
}

export interface OrderLineRec {
  id: string;
  productId: string;
  variantId: string;
  title: string;
  variantTitle: string;
  sku: string;
  price: string;
  quantity: number;
  // Minor units of discount allocated to this line.
  discount: number;
}

export interface OrderRec {
  id: string;
  number: number;
  name: string;
  token: string;
  // Null for an order no checkout made (a subscription renewal).
  checkoutToken: string | null;
  customerId: string;
  email: string;
  currency: string;
  lines: OrderLineRec[];
  discountCode: string | null;
  discountValue: DiscountValue | null;
  noteAttributes: { name: string; value: string }[];
  landingSite: string | null;
  // Optional: state files written before it was modelled have none.
  referringSite?: string | null;
  createdAt: string;
  cancelledAt: string | null;
  refundedLineQuantities: Record<string, number>;
  // "web" when absent; "subscription_contract" for a contract's renewal order.
  sourceName?: string;
}

export interface ShopState {
  domain: string;
  details: ShopDetails;
  installed: boolean;
  scopes: string[];
  products: ProductRec[];
  collections: CollectionRec[];
  customers: CustomerRec[];
  discounts: DiscountRec[];
  bulkCreations: BulkCreationRec[];
  storeCreditAccounts: StoreCreditAccountRec[];
  // Optional: state files written before gift cards were modelled have none.
  giftCards?: GiftCardRec[];
  subscriptions: SubscriptionRec[];
  // Subscription contracts a subscription app made (optional: older state files have none).
  subscriptionContracts?: ContractRec[];
  webPixel: { id: string; settings: string } | null;
  // Shopify Flow triggers the app sent (flowTriggerReceive); optional: older state files have none.
  flowTriggers?: { handle: string; payload: Record<string, unknown>; receivedAt: string }[];
  orders: OrderRec[];
  nextOrderNumber: number;
}

export interface StoreState {
  version: 1;
  nextId: number;
  shops: Record<string, ShopState>;
}

export function emptyState(): StoreState {
  return { version: 1, nextId: 7_000_000_000_001, shops: {} };
}

/** A fresh numeric id (Shopify ids are 64-bit integers; these stay below 2^53). */
export function nextId(state: StoreState): string {
  return String(state.nextId++);
}

const DEMO_DETAILS: Omit<ShopDetails, "email" | "contactEmail" | "primaryDomainUrl" | "createdAt"> = {
  name: "Demo Outdoor Store",
  currencyCode: "USD",
  ianaTimezone: "America/New_York",
  timezoneAbbreviation: "EST",
  planDisplayName: "Basic",
  moneyFormat: "${{amount}}",
  moneyWithCurrencyFormat: "${{amount}} USD",
  countryCode: "US",
};

// Prices, options and collections of the demo catalogue (the titles, handles
// and ids are the app's DEMO_PRODUCTS, so the portal shows the same products).
const CATALOGUE: Record<string, { price: string; sizes?: string[]; collections: string[]; type: string }> = {
  "merino-beanie": { price: "39.00", collections: ["accessories"], type: "Hats" },
  "trail-runner-shoes": {
    price: "129.00",
    sizes: ["8", "9", "10"],
    collections: ["footwear", "summer"],
    type: "Shoes",
  },
  "canvas-tote": { price: "45.00", collections: ["accessories", "summer"], type: "Bags" },
  "insulated-bottle": { price: "32.00", collections: ["accessories", "summer"], type: "Drinkware" },
  "rain-shell-jacket": { price: "189.00", sizes: ["S", "M", "L"], collections: ["outerwear"], type: "Jackets" },
  "wool-hiking-socks": { price: "19.00", collections: ["footwear"], type: "Socks" },
};
const SHOPPERS = [
  ["Sam", "Shopper", "sam.shopper@example.net"],
  ["Rita", "Returns", "rita.returns@example.net"],
  ["Max", "Mustermann", "max.mustermann@example.net"],
  ["Lea", "Leclerc", "lea.leclerc@example.net"],
] as const;

/** The friend's discount code the demo uses (`simulate order --discount-code FRIEND10`). */
export const DEMO_FRIEND_CODE = "FRIEND10";

function titleOf(domain: string) {
  return domain
    .replace(/\.myshopify\.com$/, "")
    .split(/[-_.]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/**
 * A new shop in the simulator: the demo catalogue (six products, four
 * collections), four shoppers and the demo affiliates as customers, and the
 * merchant's discount codes (the demo affiliates' coupons, FRIEND10 and the
 * demo advocates' friend codes).
 */
export function seedShop(state: StoreState, domain: string, options: { demo?: boolean; scopes: string[] }): ShopState {
  const created = new Date("2026-07-01T12:00:00Z").toISOString();
  const handle = domain.replace(/\.myshopify\.com$/, "");
  const details: ShopDetails = options.demo
    ? {
        ...DEMO_DETAILS,
        email: `owner@${handle}.example`,
        contactEmail: `hello@${handle}.example`,
        primaryDomainUrl: `https://${domain}`,
        createdAt: created,
      }
    : {
        ...DEMO_DETAILS,
        name: titleOf(domain),
        email: `owner@${handle}.example`,
        contactEmail: `hello@${handle}.example`,
        primaryDomainUrl: `https://${domain}`,
        createdAt: created,
      };
  const collections: CollectionRec[] = DEMO_COLLECTIONS.map((c) => ({
    id: c.gid.split("/").pop()!,
    title: c.title,
    handle: c.handle,
    updatedAt: created,
  }));
  let variantId = 9_300_000_000;
  const products: ProductRec[] = DEMO_PRODUCTS.map((p) => {
    const spec = CATALOGUE[p.handle] ?? { price: "25.00", collections: [], type: "" };
    const sizes = spec.sizes ?? ["Default Title"];
    return {
      id: p.admin_graphql_api_id.split("/").pop()!,
      title: p.title,
      handle: p.handle,
      status: "ACTIVE",
      vendor: details.name,
      productType: spec.type,
      tags: [],
      descriptionHtml: `<p>${p.title} from the ${details.name}.</p>`,
      createdAt: created,
      updatedAt: created,
      publishedAt: created,
      variants: sizes.map((size) => ({
        id: String(variantId++),
        title: size,
        price: spec.price,
        sku: `${p.handle}-${size}`.toUpperCase().replace(/[^A-Z0-9]+/g, "-"),
        inventoryQuantity: 100,
      })),
      collectionIds: spec.collections.map((h) => collections.find((c) => c.handle === h)!.id),
    };
  });
  let customerId = 9_400_000_000;
  const customer = (firstName: string, lastName: string, email: string): CustomerRec => ({
    id: String(customerId++),
    email,
    firstName,
    lastName,
    createdAt: created,
    updatedAt: created,
    numberOfOrders: 0,
    amountSpent: 0,
    tags: [],
  });
  const customers = [
    ...SHOPPERS.map(([f, l, e]) => customer(f, l, e)),
    // The first six approved affiliates shop here too (store credit payouts).
    ...demoAffiliates()
      .filter((a) => a.status === "approved")
      .slice(0, 6)
      .map((a) => customer(a.firstName, a.lastName, a.email)),
  ];
  let discountId = 9_500_000_000;
  let codeId = 9_600_000_000;
  const percentCode = (code: string, title: string): DiscountRec => ({
    id: String(discountId++),
    title,
    codes: [{ id: String(codeId++), code, usageCount: 0, createdByApp: false }],
    startsAt: created,
    endsAt: null,
    usageLimit: null,
    appliesOncePerCustomer: false,
    value: { type: "percentage", percentage: 0.1 },
    items: { all: true },
    customerIds: null,
    minimumSubtotal: null,
    minimumQuantity: null,
    combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
    tags: [],
    createdByApp: false,
    usedByCustomerIds: [],
    createdAt: created,
    updatedAt: created,
  });
  const discounts = [
    ...demoAffiliates()
      .filter((a) => a.couponCode)
      .map((a) => percentCode(a.couponCode!, `${a.firstName} ${a.lastName}: affiliate coupon`)),
    percentCode(DEMO_FRIEND_CODE, "Refer a friend: 10 % off"),
    // The demo advocates' shared friend codes, as the app would have created them.
    ...DEMO_ADVOCATES.map((a) => percentCode(a.code, `Refer a friend: ${a.firstName}'s code`)),
  ];
  const shop: ShopState = {
    domain,
    details,
    installed: true,
    scopes: [...options.scopes],
    products,
    collections,
    customers,
    discounts,
    bulkCreations: [],
    storeCreditAccounts: [],
    giftCards: [],
    subscriptions: [],
    webPixel: null,
    orders: [],
    // The app's demo seed names its 140 orders #1001 to #1140.
    nextOrderNumber: options.demo ? 1141 : 1001,
  };
  state.shops[domain] = shop;
  return shop;
}

/** State kept in a JSON file, written whole (through a temporary file) after each change. */
export class StateFile {
  constructor(readonly file: string) {}

  load(): StoreState {
    if (!existsSync(this.file)) return emptyState();
    const parsed = JSON.parse(readFileSync(this.file, "utf8")) as StoreState;
    if (parsed.version !== 1) throw new Error(`${this.file}: unknown simulator state version ${parsed.version}`);
    return parsed;
  }

  save(state: StoreState) {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, this.file);
  }
}
