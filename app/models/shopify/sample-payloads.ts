import { randomInt } from "node:crypto";

// Webhook bodies in Shopify's own shape (orders/create, refunds/create,
// orders/cancelled), for tests and the benchmark. (The store simulator
// builds its own from its store: app/simulator/orders.ts.) Only the
// fields the app reads are filled with meaningful values; ids are 18-digit
// numbers, as Shopify's are, written as bare JSON numbers.

export interface SampleLine {
  title: string;
  price: string; // "49.99"
  quantity: number;
  productId?: string;
}

export interface SampleOrderOptions {
  orderId?: string;
  number?: number;
  email?: string;
  customerId?: string;
  currency?: string;
  lines?: SampleLine[];
  couponCode?: string;
  referralCode?: string;
  clickId?: string;
  checkoutToken?: string;
  processedAt?: Date;
  cancelledAt?: Date;
  /** Shopify Markets: the customer pays in this currency at this rate (presentment units per shop unit). */
  presentment?: { currency: string; rate: number };
}

export function bigId(): string {
  return `${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}`;
}

const toCents = (price: string) => Math.round(Number(price) * 100);
const fromCents = (cents: number) => (cents / 100).toFixed(2);

export const DEFAULT_LINES: SampleLine[] = [
  { title: "Merino beanie", price: "39.00", quantity: 1 },
  { title: "Trail runner shoes", price: "129.00", quantity: 1 },
];

/** A stable, line-by-line description of an order body, ids included. */
export function sampleOrder(options: SampleOrderOptions = {}) {
  const orderId = options.orderId ?? bigId();
  const currency = options.currency ?? "USD";
  const lines = (options.lines ?? DEFAULT_LINES).map((l) => ({ ...l, id: bigId(), productId: l.productId ?? bigId() }));
  const subtotal = lines.reduce((s, l) => s + toCents(l.price) * l.quantity, 0);
  const discount = options.couponCode ? Math.round(subtotal * 0.1) : 0;
  const customerId = options.customerId ?? bigId();
  const email = options.email ?? `customer-${customerId.slice(-6)}@example.com`;
  const processedAt = (options.processedAt ?? new Date()).toISOString();
  const noteAttributes = [
    ...(options.referralCode ? [{ name: "_affiliate_ref", value: options.referralCode }] : []),
    ...(options.clickId ? [{ name: "_affiliate_click", value: options.clickId }] : []),
  ];
  // MoneyBags as Shopify sends them: shop money and the customer's money.
  const pm = options.presentment;
  const bag = (cents: number) => ({
    shop_money: { amount: fromCents(cents), currency_code: currency },
    presentment_money: pm
      ? { amount: fromCents(Math.round(cents * pm.rate)), currency_code: pm.currency }
      : { amount: fromCents(cents), currency_code: currency },
  });
  const body = {
    id: `@@${orderId}`,
    admin_graphql_api_id: `gid://shopify/Order/${orderId}`,
    name: `#${options.number ?? randomInt(1000, 99999)}`,
    email,
    contact_email: email,
    currency,
    presentment_currency: pm?.currency ?? currency,
    created_at: processedAt,
    processed_at: processedAt,
    cancelled_at: options.cancelledAt ? options.cancelledAt.toISOString() : null,
    financial_status: "paid",
    fulfillment_status: null,
    checkout_token: options.checkoutToken ?? null,
    source_name: "web",
    test: false,
    subtotal_price: fromCents(subtotal - discount),
    total_discounts: fromCents(discount),
    total_line_items_price: fromCents(subtotal),
    total_tax: "0.00",
    total_price: fromCents(subtotal - discount),
    subtotal_price_set: bag(subtotal - discount),
    total_price_set: bag(subtotal - discount),
    discount_codes: options.couponCode
      ? [{ code: options.couponCode, amount: fromCents(discount), type: "percentage" }]
      : [],
    note_attributes: noteAttributes,
    customer: {
      id: `@@${customerId}`,
      email,
      admin_graphql_api_id: `gid://shopify/Customer/${customerId}`,
      first_name: "Sam",
      last_name: "Shopper",
    },
    line_items: lines.map((l) => ({
      id: `@@${l.id}`,
      admin_graphql_api_id: `gid://shopify/LineItem/${l.id}`,
      product_id: `@@${l.productId}`,
      variant_id: null,
      title: l.title,
      name: l.title,
      price: l.price,
      price_set: bag(toCents(l.price)),
      quantity: l.quantity,
      total_discount: "0.00",
      discount_allocations: [],
      gift_card: false,
      taxable: true,
    })),
  };
  return { orderId, lines, text: bareIds(JSON.stringify(body)) };
}

/** A refunds/create body refunding `quantity` of each given line. */
export function sampleRefund(orderId: string, refunded: { lineId: string; quantity: number; subtotal: string }[]) {
  const refundId = bigId();
  const body = {
    id: `@@${refundId}`,
    order_id: `@@${orderId}`,
    admin_graphql_api_id: `gid://shopify/Refund/${refundId}`,
    created_at: new Date().toISOString(),
    note: "Simulated refund",
    restock: false,
    refund_line_items: refunded.map((r) => ({
      id: `@@${bigId()}`,
      line_item_id: `@@${r.lineId}`,
      quantity: r.quantity,
      restock_type: "no_restock",
      subtotal: Number(r.subtotal),
      total_tax: 0,
      subtotal_set: {
        shop_money: { amount: r.subtotal, currency_code: "USD" },
        presentment_money: { amount: r.subtotal, currency_code: "USD" },
      },
    })),
    transactions: [],
  };
  return bareIds(JSON.stringify(body));
}

// "@@123" strings become bare numbers, the way Shopify writes ids.
function bareIds(json: string) {
  return json.replace(/"@@(\d+)"/g, "$1");
}
