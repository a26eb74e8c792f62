import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeOrder, orderPayloadSchema } from "~/models/shopify/order-payload";
import { parseShopifyJson } from "~/models/shopify/safe-json";
import { CheckoutError, orderPayload, placeOrder, refundOrder, serializeBody } from "./orders";
import { emptyState, seedShop, type DiscountRec } from "./store-state";

// Checkout in the simulated store: prices from its catalogue, discount codes
// applied the way Shopify applies a basic code discount, and webhook bodies
// in the shape of Shopify's published samples.

const SHOP = "orders-shop.myshopify.com";
const fixture = (name: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, "../../tests/fixtures/shopify", name), "utf8")) as Record<
    string,
    unknown
  >;

function store() {
  const state = emptyState();
  const shop = seedShop(state, SHOP, { scopes: [] });
  return { state, shop };
}

function addCode(shop: ReturnType<typeof store>["shop"], code: string, patch: Partial<DiscountRec>) {
  const base = shop.discounts.find((d) => d.codes[0]!.code === "FRIEND10")!;
  const d: DiscountRec = {
    ...structuredClone(base),
    id: String(shop.discounts.length + 1),
    codes: [{ id: `9${shop.discounts.length}`, code, usageCount: 0, createdByApp: true }],
    ...patch,
  };
  shop.discounts.push(d);
  return d;
}

/** What the app reads from the body: subtotal after discounts, lines, code, customer. */
function asTheAppReadsIt(body: string) {
  return normalizeOrder(orderPayloadSchema.parse(parseShopifyJson(body)));
}

describe("placing an order", () => {
  it("takes lines and prices from the catalogue and numbers orders one after another", () => {
    const { state, shop } = store();
    const first = placeOrder(state, shop, { items: 2 });
    const second = placeOrder(state, shop, { products: ["wool-hiking-socks"], quantity: 3 });
    expect(first.lines.map((l) => [l.title, l.price, l.quantity])).toEqual([
      ["Merino Beanie", "39.00", 1],
      ["Trail Runner Shoes", "129.00", 1],
    ]);
    expect(second.lines.map((l) => [l.title, l.price, l.quantity])).toEqual([["Wool Hiking Socks", "19.00", 3]]);
    expect([first.name, second.name]).toEqual(["#1001", "#1002"]);
    expect(new Set([first.id, second.id]).size).toBe(2);
  });

  it("spreads --amount, the order's subtotal, over the lines", () => {
    const { state, shop } = store();
    const order = placeOrder(state, shop, { items: 3, amount: "80.00" });
    expect(order.lines.map((l) => l.price)).toEqual(["26.67", "26.67", "26.66"]);
    expect(asTheAppReadsIt(serializeBody(orderPayload(shop, order))).subtotal).toBe(8000);
    expect(() => placeOrder(state, shop, { items: 1, quantity: 3, amount: "10.00" })).toThrow(CheckoutError);
  });

  it.each([
    ["10 % on every line", { value: { type: "percentage", percentage: 0.1 } }, ["3.90", "12.90"], 15120, "across"],
    [
      "a fixed 20.00 across the order, in proportion",
      { value: { type: "amount", amount: "20.00", appliesOnEachItem: false } },
      ["4.64", "15.36"],
      14800,
      "across",
    ],
    [
      "5.00 off each item",
      { value: { type: "amount", amount: "5.00", appliesOnEachItem: true } },
      ["5.00", "5.00"],
      15800,
      "each",
    ],
    [
      "10 % on the Footwear collection only",
      { value: { type: "percentage", percentage: 0.1 }, items: { collectionIds: ["9200000002"] } },
      [null, "12.90"],
      15510,
      "across",
    ],
  ] as const)("applies %s", (_, patch, allocations, subtotal, method) => {
    const { state, shop } = store();
    addCode(shop, "SAVE", patch as Partial<DiscountRec>);
    const order = placeOrder(state, shop, { items: 2, discountCode: "save" });
    const body = orderPayload(shop, order);
    expect(body.line_items.map((l) => l.discount_allocations[0]?.amount ?? null)).toEqual(allocations);
    expect(body.discount_codes).toEqual([
      expect.objectContaining({ code: "SAVE", amount: ((16800 - subtotal) / 100).toFixed(2) }),
    ]);
    expect(body.discount_applications).toEqual([
      expect.objectContaining({ type: "discount_code", code: "SAVE", allocation_method: method }),
    ]);
    const read = asTheAppReadsIt(serializeBody(body));
    expect(read.subtotal).toBe(subtotal);
    expect(read.discountCodes).toEqual(["SAVE"]);
  });

  it.each([
    ["an unknown code", {}, "NOPE", /not a discount code of this store/],
    ["an expired code", { endsAt: "2020-01-01T00:00:00Z" }, "OLD", /has expired/],
    [
      "a code used up",
      { usageLimit: 1, codes: [{ id: "1", code: "USED", usageCount: 1, createdByApp: true }] },
      "USED",
      /usage limit/,
    ],
    ["a code below its minimum subtotal", { minimumSubtotal: "500.00" }, "BIG", /subtotal of at least 500.00/],
    ["a code for other customers", { customerIds: ["9400000001"] }, "VIP", /not valid for/],
  ])("refuses %s as checkout would, changing nothing", (_, patch, code, message) => {
    const { state, shop } = store();
    if (code !== "NOPE") addCode(shop, code, patch as Partial<DiscountRec>);
    const before = structuredClone({ state, shop });
    expect(() => placeOrder(state, shop, { items: 1, discountCode: code, customer: "new.buyer@example.net" })).toThrow(
      message,
    );
    expect({ state, shop }).toEqual(before);
  });

  it("lets a once-per-customer code be used once by each customer", () => {
    const { state, shop } = store();
    addCode(shop, "ONCE", { appliesOncePerCustomer: true });
    placeOrder(state, shop, { discountCode: "ONCE", customer: "sam.shopper@example.net" });
    expect(() => placeOrder(state, shop, { discountCode: "ONCE", customer: "sam.shopper@example.net" })).toThrow(
      /once per customer/,
    );
    expect(() => placeOrder(state, shop, { discountCode: "ONCE", customer: "rita.returns@example.net" })).not.toThrow();
    expect(shop.discounts.at(-1)!.codes[0]!.usageCount).toBe(2);
  });

  it("names the store's customer, or makes a new one for a first-time buyer", () => {
    const { state, shop } = store();
    const known = placeOrder(state, shop, { customer: "gid://shopify/Customer/9400000000" });
    const fresh = placeOrder(state, shop, { customer: "First.Timer@Example.net" });
    const body = orderPayload(shop, known);
    expect(body.customer).toMatchObject({
      email: "sam.shopper@example.net",
      admin_graphql_api_id: "gid://shopify/Customer/9400000000",
    });
    expect(asTheAppReadsIt(serializeBody(body)).customerGid).toBe("gid://shopify/Customer/9400000000");
    expect(shop.customers.find((c) => c.email === "first.timer@example.net")).toMatchObject({ numberOfOrders: 1 });
    expect(fresh.customerId).not.toBe(known.customerId);
    expect(() => placeOrder(state, shop, { customer: "123" })).toThrow(/No customer 123/);
  });
});

describe("webhook bodies", () => {
  it("an order body has every field of Shopify's orders/create sample, ids as bare numbers", () => {
    const { state, shop } = store();
    const order = placeOrder(state, shop, { items: 2, discountCode: "FRIEND10", referralCode: "NOAHM13" });
    const text = serializeBody(orderPayload(shop, order));
    const body = JSON.parse(text) as Record<string, any>;
    const sample = fixture("orders_create.json") as Record<string, any>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(sample).sort());
    expect(Object.keys(body.line_items[0]).sort()).toEqual(Object.keys(sample.line_items[0]).sort());
    expect(Object.keys(body.customer).sort()).toEqual(Object.keys(sample.customer).sort());
    expect(text).toMatch(new RegExp(`"id":${order.id},`));
    expect(body.note_attributes).toEqual([{ name: "_affiliate_ref", value: "NOAHM13" }]);
    expect(body.name).toBe("#1001");
    expect(body.order_number).toBe(1001);
  });

  it("a refund body has every field of Shopify's refunds/create sample and refunds the line after its discount", () => {
    const { state, shop } = store();
    const order = placeOrder(state, shop, { items: 2, discountCode: "FRIEND10" });
    const body = JSON.parse(serializeBody(refundOrder(state, shop, order, 1))) as Record<string, any>;
    const sample = fixture("refunds_create.json") as Record<string, any>;
    expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(Object.keys(sample).sort()));
    expect(body.refund_line_items).toHaveLength(1);
    expect(body.refund_line_items[0]).toMatchObject({
      quantity: 1,
      subtotal: 35.1,
      subtotal_set: { shop_money: { amount: "35.10" } },
    });
    expect(Object.keys(body.refund_line_items[0]).sort()).toEqual(Object.keys(sample.refund_line_items[0]).sort());
    // The next refund takes the next line; then there is nothing left.
    refundOrder(state, shop, order, 1);
    expect(() => refundOrder(state, shop, order, 1)).toThrow(/refunded in full/);
  });
});
