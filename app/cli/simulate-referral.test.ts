import { describe, expect, it } from "vitest";
import { normalizeOrder, orderPayloadSchema } from "../models/shopify/order-payload";
import { parseShopifyJson } from "../models/shopify/safe-json";
import { orderPayload, placeOrder, serializeBody } from "../simulator/orders";
import { emptyState, seedShop } from "../simulator/store-state";
import { orderCount, parseSimulateArgs, referralOrderOptions, UsageError } from "./simulate-referral";

// `npm run simulate -- referral ...`: the command line as parsed, and the
// friend's order the store simulator places from it, read the way the app
// reads the orders/create webhook.

const options = (...args: string[]) => referralOrderOptions(parseSimulateArgs(["referral", ...args]).values);

describe("npm run simulate -- referral: arguments", () => {
  it("reads the command and its options", () => {
    const parsed = parseSimulateArgs([
      "referral",
      "--friend-code",
      "ANA-10",
      "--invite",
      "abc234defg",
      "--device",
      "dev_42",
      "--product",
      "canvas-tote",
      "--product",
      "trail-mug",
      "--amount",
      "80.00",
      "--shop",
      "my-shop.myshopify.com",
    ]);
    expect(parsed.positionals).toEqual(["referral"]);
    expect(parsed.values).toMatchObject({
      "friend-code": "ANA-10",
      invite: "abc234defg",
      device: "dev_42",
      product: ["canvas-tote", "trail-mug"],
      amount: "80.00",
      shop: "my-shop.myshopify.com",
    });
  });

  it("turns them into the friend's checkout: the code, the invite and device attributes, the landing page", () => {
    expect(options("--friend-code", "ANA-10", "--invite", "abc234defg", "--device", "dev_42", "--items", "2")).toEqual({
      discountCode: "ANA-10",
      attributes: [
        { name: "_referral_invite", value: "abc234defg" },
        { name: "_referral_device", value: "dev_42" },
      ],
      landingSite: "/?invite=abc234defg",
      customer: undefined,
      products: undefined,
      items: 2,
      quantity: undefined,
      amount: undefined,
    });
  });

  it("takes a code alone (no attributes, landing on /) and a customer by --email as by --customer", () => {
    expect(options("--friend-code", "ANA-10", "--email", "friend@example.com")).toMatchObject({
      discountCode: "ANA-10",
      attributes: [],
      landingSite: "/",
      customer: "friend@example.com",
    });
  });

  it.each([
    ["neither a code nor an invite", [], /--friend-code CODE .* or --invite TOKEN/],
    ["an invite that is not a share token", ["--invite", "NOT A TOKEN"], /not a share token/],
    ["a device id with spaces", ["--friend-code", "X1", "--device", "my phone"], /--device/],
    ["an amount that is not one", ["--friend-code", "X1", "--amount", "eighty"], /--amount/],
    ["no items", ["--friend-code", "X1", "--items", "0"], /--items/],
    ["half a quantity", ["--friend-code", "X1", "--quantity", "1.5"], /--quantity/],
  ])("refuses %s with a usage error", (_label, args, message) => {
    expect(() => options(...args)).toThrow(UsageError);
    expect(() => options(...args)).toThrow(message);
  });

  it("refuses an option the simulator does not know", () => {
    expect(() => parseSimulateArgs(["referral", "--frend-code", "X1"])).toThrow(/--frend-code/);
  });

  it.each([
    [undefined, 1],
    ["1", 1],
    ["100", 100],
    ["1000", 1000],
  ])("order --count %s places %i order(s)", (raw, n) => {
    expect(orderCount(parseSimulateArgs(["order", ...(raw ? ["--count", raw] : [])]).values.count)).toBe(n);
  });

  it.each(["0", "1001", "2.5", "many"])("refuses order --count %s", (raw) => {
    expect(() => orderCount(raw)).toThrow(UsageError);
  });
});

describe("npm run simulate -- referral: the order it places", () => {
  const SHOP = "referral-sim.myshopify.com";

  it("is a new friend's order with the code applied and the invite in note_attributes, as the app reads it", async () => {
    const state = emptyState();
    const shop = seedShop(state, SHOP, { scopes: [] });
    const code = shop.discounts.find((d) => d.codes.some((c) => c.code === "FRIEND10"))!.codes[0]!.code;
    const order = placeOrder(
      state,
      shop,
      options("--friend-code", code.toLowerCase(), "--invite", "abc234defg", "--device", "dev_42", "--amount", "80.00"),
    );
    const body = JSON.parse(serializeBody(orderPayload(shop, order)));
    expect(body.landing_site).toBe("/?invite=abc234defg");
    expect(body.note_attributes).toEqual([
      { name: "_referral_invite", value: "abc234defg" },
      { name: "_referral_device", value: "dev_42" },
    ]);
    const read = normalizeOrder(orderPayloadSchema.parse(parseShopifyJson(serializeBody(orderPayload(shop, order)))));
    expect(read.discountCodes).toEqual([code]);
    expect(read.attributes).toMatchObject({ _referral_invite: "abc234defg", _referral_device: "dev_42" });
    // The friend is a customer the store has not seen before.
    expect(shop.customers.find((c) => c.id === order.customerId)!.numberOfOrders).toBe(1);
  });
});
