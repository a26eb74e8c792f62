import { randomBytes } from "node:crypto";
import { currencyExponent } from "../lib/money";
import { toMinorUnits } from "../models/shopify/money-string";
import { gid, moneyString } from "./admin-common";
import {
  nextId,
  type CustomerRec,
  type DiscountRec,
  type OrderLineRec,
  type OrderRec,
  type ShopState,
  type StoreState,
} from "./store-state";

// A checkout in the simulated store: an order from its catalogue, by one of
// its customers (or a new one), with one of its discount codes applied the
// way Shopify applies a basic code discount, and the webhook bodies Shopify
// sends for it (orders/create, orders/paid, orders/cancelled, refunds/create)
// in the shape of Shopify's published samples.

export class CheckoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckoutError";
  }
}

export interface PlaceOrderOptions {
  // Product handles or GIDs; one line each. Default: the first `items` active products.
  products?: string[];
  items?: number;
  quantity?: number;
  // The order's subtotal before discounts, spread evenly over the lines (replaces the catalogue prices).
  amount?: string;
  // A customer GID, numeric id or e-mail; an unknown e-mail becomes a new customer.
  customer?: string;
  discountCode?: string;
  referralCode?: string;
  clickId?: string;
  // More cart attributes (the refer-a-friend invite token and device id the
  // storefront script sets), copied to the order's note_attributes.
  attributes?: { name: string; value: string }[];
  // The storefront URL the buyer arrived on (default: the ?ref= link, or /).
  landingSite?: string;
  // The page the buyer came from (Shopify's referring_site), e.g. a coupon site.
  referringSite?: string;
  now?: Date;
}

const money = (minor: number, currency: string) => moneyString(minor, currency);
const set = (minor: number, currency: string) => ({
  shop_money: { amount: money(minor, currency), currency_code: currency },
  presentment_money: { amount: money(minor, currency), currency_code: currency },
});

function pickProducts(shop: ShopState, options: PlaceOrderOptions) {
  if (options.products?.length) {
    return options.products.map((wanted) => {
      const p = shop.products.find((x) => x.handle === wanted || gid("Product", x.id) === wanted || x.id === wanted);
      if (!p)
        throw new CheckoutError(
          `No product "${wanted}" in the store (handles: ${shop.products.map((x) => x.handle).join(", ")}).`,
        );
      if (p.status !== "ACTIVE")
        throw new CheckoutError(`Product "${p.handle}" is not for sale (${p.status.toLowerCase()}).`);
      return p;
    });
  }
  const active = shop.products.filter((p) => p.status === "ACTIVE" && p.variants.length);
  const n = Math.max(1, options.items ?? 1);
  if (!active.length) throw new CheckoutError("The store has no active products to order.");
  return Array.from({ length: n }, (_, i) => active[i % active.length]!);
}

function pickCustomer(
  state: StoreState,
  shop: ShopState,
  wanted: string | undefined,
  orderNumber: number,
  now: string,
) {
  if (wanted && !wanted.includes("@")) {
    const id = wanted.replace(/^gid:\/\/shopify\/Customer\//, "");
    const c = shop.customers.find((x) => x.id === id);
    if (!c) throw new CheckoutError(`No customer ${wanted} in the store.`);
    return c;
  }
  const email = (wanted ?? `shopper-${orderNumber}@example.net`).trim().toLowerCase();
  const existing = shop.customers.find((c) => c.email.toLowerCase() === email);
  if (existing) return existing;
  // A first-time buyer: checkout creates the customer.
  const local = email.split("@")[0]!;
  const c: CustomerRec = {
    id: nextId(state),
    email,
    firstName: local.split(/[._-]/)[0]!.replace(/^./, (x) => x.toUpperCase()),
    lastName: "Buyer",
    createdAt: now,
    updatedAt: now,
    numberOfOrders: 0,
    amountSpent: 0,
    tags: [],
  };
  shop.customers.push(c);
  return c;
}

/** Splits a total into n parts differing by at most one unit (largest first). */
function split(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => base + (i < total - base * n ? 1 : 0));
}

/** Spreads `amount` over weights in proportion, largest remainder first; the parts add up exactly. */
function allocate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / total);
  const parts = exact.map(Math.floor);
  let missing = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((e, i) => ({ i, rest: e - Math.floor(e) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (missing <= 0) break;
    parts[i]! += 1;
    missing -= 1;
  }
  return parts;
}

function discountProblem(d: DiscountRec, code: string, customer: CustomerRec, now: Date): string | null {
  if (Date.parse(d.startsAt) > now.getTime()) return `Discount code ${code} is not active yet.`;
  if (d.endsAt && Date.parse(d.endsAt) <= now.getTime()) return `Discount code ${code} has expired.`;
  const used = d.codes.reduce((s, c) => s + c.usageCount, 0);
  if (d.usageLimit !== null && used >= d.usageLimit) return `Discount code ${code} has reached its usage limit.`;
  if (d.appliesOncePerCustomer && d.usedByCustomerIds.includes(customer.id))
    return `Discount code ${code} can be used once per customer, and ${customer.email} has used it.`;
  if (d.customerIds && !d.customerIds.includes(customer.id))
    return `Discount code ${code} is not valid for ${customer.email}.`;
  return null;
}

/** Places an order in the store; throws CheckoutError (what checkout would tell the buyer) and changes nothing then. */
export function placeOrder(state: StoreState, shop: ShopState, options: PlaceOrderOptions = {}): OrderRec {
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const currency = shop.details.currencyCode;
  const products = pickProducts(shop, options);
  const quantity = Math.max(1, Math.trunc(options.quantity ?? 1));
  let unitPrices = products.map((p) => toMinorUnits(p.variants[0]!.price, currency));
  if (options.amount !== undefined) {
    const total = toMinorUnits(options.amount, currency);
    if (!(total > 0)) throw new CheckoutError(`--amount must be a positive amount, not "${options.amount}".`);
    const lineTotals = split(total, products.length);
    if (lineTotals.some((t) => t % quantity !== 0))
      throw new CheckoutError(
        `${options.amount} cannot be split into ${products.length} line(s) of quantity ${quantity} in whole cents.`,
      );
    unitPrices = lineTotals.map((t) => t / quantity);
  }

  // Work on copies: a refused checkout leaves the store as it was.
  const draft = structuredClone({ nextId: state.nextId, customers: shop.customers });
  const draftState = { ...state, nextId: draft.nextId } as StoreState;
  const draftShop = { ...shop, customers: draft.customers };
  const number = shop.nextOrderNumber;
  const customer = pickCustomer(draftState, draftShop, options.customer, number, nowIso);

  const lines: OrderLineRec[] = products.map((p, i) => ({
    id: nextId(draftState),
    productId: p.id,
    variantId: p.variants[0]!.id,
    title: p.title,
    variantTitle: p.variants[0]!.title,
    sku: p.variants[0]!.sku,
    price: money(unitPrices[i]!, currency),
    quantity,
    discount: 0,
  }));
  const lineTotal = (l: OrderLineRec) => toMinorUnits(l.price, currency) * l.quantity;

  let discount: DiscountRec | undefined;
  let codeText: string | null = null;
  if (options.discountCode) {
    const wanted = options.discountCode.trim().toLowerCase();
    discount = shop.discounts.find((d) => d.codes.some((c) => c.code.toLowerCase() === wanted));
    if (!discount)
      throw new CheckoutError(
        `Enter a valid discount code: ${options.discountCode} is not a discount code of this store.`,
      );
    codeText = discount.codes.find((c) => c.code.toLowerCase() === wanted)!.code;
    const problem = discountProblem(discount, codeText, customer, now);
    if (problem) throw new CheckoutError(problem);
    const d = discount;
    const eligible = lines.map((l) => {
      if ("all" in d.items) return true;
      const product = shop.products.find((p) => p.id === l.productId)!;
      return "productIds" in d.items
        ? d.items.productIds.includes(l.productId)
        : d.items.collectionIds.some((c) => product.collectionIds.includes(c));
    });
    if (!eligible.some(Boolean))
      throw new CheckoutError(`Discount code ${codeText} does not apply to any item in this order.`);
    const eligibleSubtotal = lines.reduce((s, l, i) => s + (eligible[i] ? lineTotal(l) : 0), 0);
    const eligibleQuantity = lines.reduce((s, l, i) => s + (eligible[i] ? l.quantity : 0), 0);
    if (d.minimumSubtotal && eligibleSubtotal < toMinorUnits(d.minimumSubtotal, currency))
      throw new CheckoutError(
        `Discount code ${codeText} needs a subtotal of at least ${d.minimumSubtotal} ${currency}.`,
      );
    if (d.minimumQuantity && eligibleQuantity < d.minimumQuantity)
      throw new CheckoutError(`Discount code ${codeText} needs at least ${d.minimumQuantity} items.`);
    if (d.value.type === "free_shipping") {
      // No shipping lines here: nothing to take off.
    } else if (d.value.type === "percentage") {
      const pct = d.value.percentage;
      lines.forEach((l, i) => {
        if (eligible[i]) l.discount = Math.round(lineTotal(l) * pct);
      });
    } else if (d.value.appliesOnEachItem) {
      const each = toMinorUnits(d.value.amount, currency);
      lines.forEach((l, i) => {
        if (eligible[i]) l.discount = Math.min(each, toMinorUnits(l.price, currency)) * l.quantity;
      });
    } else {
      const amount = Math.min(toMinorUnits(d.value.amount, currency), eligibleSubtotal);
      const parts = allocate(
        amount,
        lines.map((l, i) => (eligible[i] ? lineTotal(l) : 0)),
      );
      lines.forEach((l, i) => (l.discount = parts[i]!));
    }
  }

  // Commit: ids, the customer, the code's usage, stock, the order number.
  state.nextId = draftState.nextId;
  shop.customers = draft.customers;
  const buyer = shop.customers.find((c) => c.id === customer.id)!;
  const subtotal = lines.reduce((s, l) => s + lineTotal(l) - l.discount, 0);
  buyer.numberOfOrders += 1;
  buyer.amountSpent += subtotal;
  buyer.updatedAt = nowIso;
  if (discount && codeText) {
    discount.codes.find((c) => c.code === codeText)!.usageCount += 1;
    if (!discount.usedByCustomerIds.includes(buyer.id)) discount.usedByCustomerIds.push(buyer.id);
  }
  for (const l of lines) {
    const v = shop.products.find((p) => p.id === l.productId)?.variants.find((x) => x.id === l.variantId);
    if (v) v.inventoryQuantity -= l.quantity;
  }
  shop.nextOrderNumber += 1;
  const noteAttributes = [
    ...(options.referralCode ? [{ name: "_affiliate_ref", value: options.referralCode }] : []),
    ...(options.clickId ? [{ name: "_affiliate_click", value: options.clickId }] : []),
    ...(options.attributes ?? []).map((a) => ({ name: String(a.name), value: String(a.value) })),
  ];
  const order: OrderRec = {
    id: nextId(state),
    number,
    name: `#${number}`,
    token: randomBytes(16).toString("hex"),
    checkoutToken: randomBytes(16).toString("hex"),
    customerId: buyer.id,
    email: buyer.email,
    currency,
    lines,
    discountCode: codeText,
    discountValue: discount ? discount.value : null,
    noteAttributes,
    landingSite:
      options.landingSite ?? (options.referralCode ? `/?ref=${encodeURIComponent(options.referralCode)}` : "/"),
    referringSite: options.referringSite ?? null,
    createdAt: nowIso,
    cancelledAt: null,
    refundedLineQuantities: {},
  };
  shop.orders.push(order);
  return order;
}

const SHIPPING_ADDRESS = {
  first_name: "Sam",
  address1: "1 Trail Way",
  phone: null,
  city: "Burlington",
  zip: "05401",
  province: "Vermont",
  country: "United States",
  last_name: "Shopper",
  address2: null,
  company: null,
  latitude: null,
  longitude: null,
  name: "Sam Shopper",
  country_code: "US",
  province_code: "VT",
};

// Ids are written as bare JSON numbers, as Shopify writes them; they are
// kept as strings here and unquoted when the body is serialized.
const bare = (id: string) => `@@${id}`;
export const serializeBody = (body: unknown) => JSON.stringify(body).replace(/"@@(\d+)"/g, "$1");

function lineItemPayload(shop: ShopState, order: OrderRec, l: OrderLineRec) {
  const c = order.currency;
  const product = shop.products.find((p) => p.id === l.productId);
  return {
    id: bare(l.id),
    admin_graphql_api_id: gid("LineItem", l.id),
    attributed_staffs: [],
    current_quantity: l.quantity - (order.refundedLineQuantities[l.id] ?? 0),
    fulfillable_quantity: l.quantity,
    fulfillment_service: "manual",
    fulfillment_status: null,
    gift_card: false,
    grams: 0,
    name: l.variantTitle === "Default Title" ? l.title : `${l.title} - ${l.variantTitle}`,
    price: l.price,
    price_set: set(toMinorUnits(l.price, c), c),
    product_exists: Boolean(product),
    product_id: bare(l.productId),
    properties: [],
    quantity: l.quantity,
    requires_shipping: true,
    sales_line_item_group_id: null,
    sku: l.sku,
    taxable: true,
    title: l.title,
    total_discount: "0.00",
    total_discount_set: set(0, c),
    variant_id: bare(l.variantId),
    variant_inventory_management: "shopify",
    variant_title: l.variantTitle === "Default Title" ? null : l.variantTitle,
    vendor: product?.vendor ?? null,
    tax_lines: [],
    duties: [],
    discount_allocations: l.discount
      ? [{ amount: money(l.discount, c), amount_set: set(l.discount, c), discount_application_index: 0 }]
      : [],
  };
}

/** The body of orders/create, orders/paid and orders/cancelled for an order of the store. */
export function orderPayload(shop: ShopState, order: OrderRec, options: { financialStatus?: string } = {}) {
  const c = order.currency;
  const customer = shop.customers.find((x) => x.id === order.customerId);
  const gross = order.lines.reduce((s, l) => s + toMinorUnits(l.price, c) * l.quantity, 0);
  const discount = order.lines.reduce((s, l) => s + l.discount, 0);
  const refunded = order.lines.reduce(
    (s, l) =>
      s +
      Math.round(
        ((toMinorUnits(l.price, c) * l.quantity - l.discount) * (order.refundedLineQuantities[l.id] ?? 0)) / l.quantity,
      ),
    0,
  );
  const subtotal = gross - discount;
  const value = order.discountValue;
  const handle = shop.domain.replace(/\.myshopify\.com$/, "");
  return {
    id: bare(order.id),
    admin_graphql_api_id: gid("Order", order.id),
    app_id: bare("580111"),
    browser_ip: "127.0.0.1",
    buyer_accepts_marketing: false,
    cancel_reason: order.cancelledAt ? "customer" : null,
    cancelled_at: order.cancelledAt,
    cart_token: null,
    checkout_token: order.checkoutToken,
    client_details: {
      accept_language: "en-US",
      browser_height: null,
      browser_ip: "127.0.0.1",
      browser_width: null,
      session_hash: null,
      user_agent: "Mozilla/5.0 (store simulator)",
    },
    closed_at: null,
    confirmation_number: order.token.slice(0, 9).toUpperCase(),
    confirmed: true,
    contact_email: order.email,
    created_at: order.createdAt,
    currency: c,
    current_shipping_price_set: set(0, c),
    current_subtotal_price: money(subtotal - refunded, c),
    current_subtotal_price_set: set(subtotal - refunded, c),
    current_total_additional_fees_set: null,
    current_total_discounts: money(discount, c),
    current_total_discounts_set: set(discount, c),
    current_total_duties_set: null,
    current_total_price: money(subtotal - refunded, c),
    current_total_price_set: set(subtotal - refunded, c),
    current_total_tax: "0.00",
    current_total_tax_set: set(0, c),
    customer_locale: "en",
    device_id: null,
    discount_codes: order.discountCode
      ? [
          {
            code: order.discountCode,
            amount: money(discount, c),
            type: value?.type === "percentage" ? "percentage" : "fixed_amount",
          },
        ]
      : [],
    duties_included: false,
    email: order.email,
    estimated_taxes: false,
    financial_status: order.cancelledAt ? "refunded" : (options.financialStatus ?? "paid"),
    fulfillment_status: null,
    landing_site: order.landingSite,
    landing_site_ref: null,
    location_id: null,
    merchant_business_entity_id: "MTAwMDAwMDAw",
    merchant_of_record_app_id: null,
    name: order.name,
    note: null,
    note_attributes: order.noteAttributes,
    number: order.number - 1000,
    order_number: order.number,
    order_status_url: `https://${shop.domain}/${handle}/orders/${order.token}/authenticate?key=${order.checkoutToken ?? order.token}`,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: ["bogus"],
    phone: null,
    po_number: null,
    presentment_currency: c,
    processed_at: order.createdAt,
    reference: null,
    referring_site: order.referringSite ?? null,
    source_identifier: null,
    source_name: order.sourceName ?? "web",
    source_url: null,
    subtotal_price: money(subtotal, c),
    subtotal_price_set: set(subtotal, c),
    tags: "",
    tax_exempt: false,
    tax_lines: [],
    taxes_included: false,
    test: true,
    token: order.token,
    total_cash_rounding_payment_adjustment_set: set(0, c),
    total_cash_rounding_refund_adjustment_set: set(0, c),
    total_discounts: money(discount, c),
    total_discounts_set: set(discount, c),
    total_line_items_price: money(gross, c),
    total_line_items_price_set: set(gross, c),
    total_outstanding: "0.00",
    total_price: money(subtotal, c),
    total_price_set: set(subtotal, c),
    total_shipping_price_set: set(0, c),
    total_tax: "0.00",
    total_tax_set: set(0, c),
    total_tip_received: "0.00",
    total_weight: 0,
    updated_at: order.cancelledAt ?? order.createdAt,
    user_id: null,
    billing_address: SHIPPING_ADDRESS,
    customer: customer
      ? {
          id: bare(customer.id),
          created_at: customer.createdAt,
          updated_at: customer.updatedAt,
          first_name: customer.firstName,
          last_name: customer.lastName,
          state: "enabled",
          note: null,
          verified_email: true,
          multipass_identifier: null,
          tax_exempt: false,
          email: customer.email,
          phone: null,
          currency: c,
          tax_exemptions: [],
          admin_graphql_api_id: gid("Customer", customer.id),
          default_address: null,
        }
      : null,
    discount_applications:
      order.discountCode && value
        ? [
            {
              // Free shipping is Shopify's 100 % off the shipping line.
              target_type: value.type === "free_shipping" ? "shipping_line" : "line_item",
              type: "discount_code",
              value:
                value.type === "percentage"
                  ? String(Math.round(value.percentage * 10000) / 100).replace(/^(\d+)$/, "$1.0")
                  : value.type === "amount"
                    ? value.amount
                    : "100.0",
              value_type: value.type === "amount" ? "fixed_amount" : "percentage",
              allocation_method: value.type === "amount" && value.appliesOnEachItem ? "each" : "across",
              target_selection:
                value.type === "free_shipping" || order.lines.every((l) => l.discount > 0) ? "all" : "entitled",
              code: order.discountCode,
            },
          ]
        : [],
    fulfillments: [],
    line_items: order.lines.map((l) => lineItemPayload(shop, order, l)),
    payment_terms: null,
    refunds: [],
    shipping_address: SHIPPING_ADDRESS,
    shipping_lines: [],
    returns: [],
    line_item_groups: [],
  };
}

/** Refunds `lines` lines of an order (whole quantities not yet refunded); answers the refunds/create body. */
export function refundOrder(state: StoreState, shop: ShopState, order: OrderRec, lineCount: number, now = new Date()) {
  const c = order.currency;
  const open = order.lines.filter((l) => (order.refundedLineQuantities[l.id] ?? 0) < l.quantity);
  if (!open.length) throw new CheckoutError(`Order ${order.name} is refunded in full already.`);
  const chosen = open.slice(0, Math.max(1, lineCount));
  const refundId = nextId(state);
  const items = chosen.map((l) => {
    const qty = l.quantity - (order.refundedLineQuantities[l.id] ?? 0);
    order.refundedLineQuantities[l.id] = l.quantity;
    const sub = Math.round(((toMinorUnits(l.price, c) * l.quantity - l.discount) * qty) / l.quantity);
    const line = lineItemPayload(shop, order, l);
    return {
      id: bare(nextId(state)),
      quantity: qty,
      line_item_id: bare(l.id),
      location_id: null,
      restock_type: "no_restock",
      subtotal: sub / 10 ** currencyExponent(c),
      total_tax: 0,
      subtotal_set: set(sub, c),
      total_tax_set: set(0, c),
      line_item: line,
    };
  });
  return {
    id: bare(refundId),
    order_id: bare(order.id),
    created_at: now.toISOString(),
    note: "Refunded in the store simulator",
    user_id: null,
    processed_at: now.toISOString(),
    duties: [],
    total_duties_set: set(0, c),
    return: null,
    refund_shipping_lines: [],
    restock: false,
    admin_graphql_api_id: gid("Refund", refundId),
    order_adjustments: [],
    refund_line_items: items,
    transactions: [],
  };
}
