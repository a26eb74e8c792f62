import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bodyShop } from "./webhook-body";

const fixture = (name: string) =>
  readFileSync(path.resolve(__dirname, "../../../tests/fixtures/shopify", name), "utf8");
const order = fixture("orders_create.json");
const compact = JSON.stringify(JSON.parse(order));
const customer = { id: 1, email: "jon@example.com" };
const named = (domain: string | null, storefront: string | null = null) => ({ ok: true, domain, storefront });

describe("bodyShop: the shop a webhook body names", () => {
  it.each([
    ["an order, as Shopify prints it", "orders/create", order, named("jsmith.myshopify.com")],
    ["an order, compact", "orders/paid", compact, named("jsmith.myshopify.com")],
    [
      "an order on the shop's own storefront domain",
      "orders/cancelled",
      compact.replace("https://jsmith.myshopify.com", "https://Www.Shop.Example"),
      named(null, "www.shop.example"),
    ],
    [
      "an escaped URL",
      "orders/create",
      '{"order_status_url":"https:\\/\\/a-shop.myshopify.com\\/1\\/orders\\/x"}',
      named("a-shop.myshopify.com"),
    ],
    [
      "the key's text inside a customer's note is not the key",
      "orders/create",
      '{"note":"\\"order_status_url\\":\\"https://evil.myshopify.com/\\"","order_status_url":"https://good.myshopify.com/1"}',
      named("good.myshopify.com"),
    ],
    ["an order without a status URL names nothing", "orders/create", '{"id":1}', named(null)],
    ["a status URL that is not a URL", "orders/create", '{"order_status_url":"nope"}', named(null)],
    ["refunds name no shop", "refunds/create", fixture("refunds_create.json"), named(null)],
    ["products name no shop", "products/update", '{"id":1}', named(null)],
    [
      "shop/redact",
      "shop/redact",
      JSON.stringify({ shop_id: 1, shop_domain: "A.myshopify.com" }),
      named("a.myshopify.com"),
    ],
    [
      "customers/redact",
      "customers/redact",
      JSON.stringify({ shop_domain: "a.myshopify.com", customer, orders_to_redact: [1] }),
      named("a.myshopify.com"),
    ],
    [
      "customers/data_request with an 18-digit customer id",
      "customers/data_request",
      '{"shop_domain":"a.myshopify.com","customer":{"id":115310627314723954},"data_request":{"id":9}}',
      named("a.myshopify.com"),
    ],
    [
      "app/uninstalled",
      "app/uninstalled",
      JSON.stringify({ ...JSON.parse(fixture("app_uninstalled.json")), myshopify_domain: "a.myshopify.com" }),
      named("a.myshopify.com"),
    ],
  ] as const)("%s", (_label, topic, text, expected) => {
    expect(bodyShop(topic, text)).toEqual(expected);
  });

  it.each([
    ["customers/redact without a customer", "customers/redact", { shop_domain: "a.myshopify.com" }, /customer/],
    [
      "customers/redact with customer null",
      "customers/redact",
      { shop_domain: "a.myshopify.com", customer: null },
      /customer/,
    ],
    [
      "a customer with neither id nor e-mail",
      "customers/data_request",
      { shop_domain: "a.myshopify.com", customer: {} },
      /neither/,
    ],
    ["shop/redact without shop_domain", "shop/redact", { shop_id: 1 }, /shop_domain/],
    [
      "Shopify's sample uninstall (no domains)",
      "app/uninstalled",
      JSON.parse(fixture("app_uninstalled.json")),
      /names no shop/,
    ],
  ])("refuses %s", (_label, topic, body, message) => {
    const result = bodyShop(topic, JSON.stringify(body));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it("refuses a privacy body that is not JSON", () => {
    expect(bodyShop("customers/redact", "{")).toEqual({
      ok: false,
      message: "Malformed customers/redact body: it is not valid JSON.",
    });
  });
});
