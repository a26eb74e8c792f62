import { BillingInterval, Session, shopifyApi, type ApiVersion } from "@shopify/shopify-api";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { AdminApiError, fromAccessToken, type AdminClient } from "~/models/shopify/admin-client.server";
import {
  ACTIVE_SUBSCRIPTIONS,
  ADMIN_OPERATIONS,
  GIFT_CARD_CREATE,
  GIFT_CARDS_BY_CODE,
  APP_SUBSCRIPTION_CANCEL,
  APP_SUBSCRIPTION_CREATE,
  CATALOGUE_PAGE,
  COLLECTIONS_PAGE,
  CODE_DISCOUNT_BY_CODE,
  CUSTOMER_BY_EMAIL,
  CUSTOMER_STORE_CREDIT,
  DISCOUNT_CODE_BASIC_CREATE,
  DISCOUNT_CODE_DEACTIVATE,
  DISCOUNT_CODE_DELETE,
  DISCOUNT_CODE_FREE_SHIPPING_CREATE,
  DISCOUNT_REDEEM_CODE_BULK_ADD,
  DISCOUNT_REDEEM_CODE_BULK_CREATION,
  PRODUCT_COLLECTIONS,
  SHOP_DETAILS,
  STORE_CREDIT_CREDIT,
  STORE_CREDIT_DEBIT,
  STORE_CREDIT_RECENT_CREDITS,
  WEB_PIXEL_CREATE,
  WEB_PIXEL_UPDATE,
  APP_WEB_PIXEL,
  GRANTED_SCOPES,
  FLOW_TRIGGER_RECEIVE,
  type AdminOperation,
} from "~/models/shopify/admin-operations";
import { shopifyLib } from "~/shopify.server";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The store simulator on the wire, as the app meets it: the app's own Admin
// client (shopify-api's GraphQL client through SHOPIFY_ADMIN_BASE_URL), the
// access-token header, Shopify's error shapes, the charge confirmation page,
// and orders that come back to the app as signed webhooks.

applyTestEnv();
const sim = useStoreSimulator({
  scopes: [
    "read_products",
    "write_discounts",
    "read_customers",
    "write_store_credit_account_transactions",
    "read_store_credit_accounts",
    "write_gift_cards",
    "write_pixels",
    "read_customer_events",
  ],
});
useTestDatabase();
const server = useTestServer();

const SHOP = "wire-shop.myshopify.com";
let client: AdminClient;

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
  client = fromAccessToken(SHOP, sim.accessToken(SHOP));
});

async function post(path: string, body: unknown, token: string | null = sim.accessToken(SHOP)) {
  return fetch(`${sim.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-shopify-access-token": token } : {}) },
    body: JSON.stringify(body),
  });
}

const GRAPHQL = `/shops/${SHOP}/admin/api/2026-07/graphql.json`;

describe("the Admin API endpoint", () => {
  it("refuses a deliberately wrong query with Shopify's error shape, whoever sends it", async () => {
    const typo = `query ProductTitles($ids: [ID!]!) {
      nodes(ids: $ids) {
        ... on Product {
          titel
        }
      }
    }`;
    const res = await post(GRAPHQL, { query: typo, variables: { ids: ["gid://shopify/Product/9100000000"] } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: "Field 'titel' doesn't exist on type 'Product'",
          locations: [{ line: 4, column: 11 }],
          path: ["query ProductTitles", "nodes", "... on Product", "titel"],
          extensions: { code: "undefinedField", typeName: "Product", fieldName: "titel" },
        },
      ],
    });
    // The app's client turns it into an error that names the operation and Shopify's message.
    const wrong: AdminOperation<unknown, { ids: string[] }> = {
      name: "ProductTitles",
      usedBy: "this test",
      document: typo,
    };
    const error = await client.run(wrong, { ids: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as Error).message).toBe(
      "the Admin API refused ProductTitles: Field 'titel' doesn't exist on type 'Product'",
    );
  });

  it("answers 401 without the shop's token, and 404 for an API version it has no schema for", async () => {
    const query = { query: "{ shop { name } }" };
    for (const token of [null, "shpat_wrong", sim.accessToken("other-shop.myshopify.com")]) {
      const res = await post(GRAPHQL, query, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      });
    }
    const old = await post(`/shops/${SHOP}/admin/api/2024-01/graphql.json`, query);
    expect(old.status).toBe(404);
    // The shop is found by its token on the plain path too.
    const plain = await post("/admin/api/2026-07/graphql.json", query);
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { data: { shop: { name: string } } }).data.shop.name).toBe("Wire Shop");
  });

  it("grants the token on the OAuth endpoint only to the app's own credentials", async () => {
    const good = await post(`/shops/${SHOP}/admin/oauth/access_token`, {
      client_id: sim.store.app.apiKey,
      client_secret: sim.store.app.apiSecret,
      code: "abc",
    });
    expect(await good.json()).toMatchObject({ access_token: sim.accessToken(SHOP) });
    const bad = await post(`/shops/${SHOP}/admin/oauth/access_token`, {
      client_id: "x",
      client_secret: "y",
      code: "abc",
    });
    expect(bad.status).toBe(400);
  });
});

describe("every Admin operation the app lists", () => {
  it("runs on the store through the app's client, validated and answered without errors", async () => {
    const ran = new Set<string>();
    const run = async <T, V>(op: AdminOperation<T, V>, variables: V): Promise<T> => {
      const { data, cost } = await client.run(op, variables);
      expect(cost?.requestedQueryCost).toEqual(expect.any(Number));
      ran.add(op.name);
      return data;
    };
    expect((await run(SHOP_DETAILS, {})).shop.currencyCode).toBe("USD");
    expect((await run(CATALOGUE_PAGE, { first: 3, after: null })).products.nodes).toHaveLength(3);
    const collections = (await run(COLLECTIONS_PAGE, { first: 2, after: null })).collections;
    expect(collections.nodes.map((c) => c.title)).toEqual(["Summer", "Accessories"]);
    expect(collections.pageInfo.hasNextPage).toBe(true);
    expect((await run(PRODUCT_COLLECTIONS, { ids: ["gid://shopify/Product/9100000004"] })).nodes).toEqual([
      {
        id: "gid://shopify/Product/9100000004",
        collections: { nodes: [{ id: "gid://shopify/Collection/9200000003" }] },
      },
    ]);
    const code = await run(DISCOUNT_CODE_BASIC_CREATE, {
      input: {
        title: "Friend of Ava",
        code: "AVA-FRIEND",
        customerGets: { value: { percentage: 0.1 }, items: { all: true } },
      },
    });
    const discountId = code.discountCodeBasicCreate.codeDiscountNode!.id;
    expect((await run(CODE_DISCOUNT_BY_CODE, { code: "ava-friend" })).codeDiscountNodeByCode?.id).toBe(discountId);
    const shipping = await run(DISCOUNT_CODE_FREE_SHIPPING_CREATE, {
      input: { title: "Free shipping for Ava's friends", code: "AVA-SHIP", destination: { all: true } },
    });
    expect(shipping.discountCodeFreeShippingCreate.userErrors).toEqual([]);
    const bulk = await run(DISCOUNT_REDEEM_CODE_BULK_ADD, { discountId, codes: [{ code: "AVA-FRIEND-2" }] });
    const done = await run(DISCOUNT_REDEEM_CODE_BULK_CREATION, { id: bulk.discountRedeemCodeBulkAdd.bulkCreation!.id });
    expect(done.discountRedeemCodeBulkCreation).toMatchObject({ done: true, importedCount: 1 });
    const customer = (await run(CUSTOMER_BY_EMAIL, { query: "email:sam.shopper@example.net" })).customers.nodes[0]!;
    const money = { amount: "12.00", currencyCode: "USD" };
    expect(
      (await run(STORE_CREDIT_CREDIT, { id: customer.id, amount: money })).storeCreditAccountCredit.userErrors,
    ).toEqual([]);
    const recent = await run(STORE_CREDIT_RECENT_CREDITS, {
      customerId: customer.id,
      accountQuery: "currency_code:USD",
    });
    expect(recent.customer?.storeCreditAccounts.nodes[0]?.transactions.nodes).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/StoreCreditAccountCreditTransaction\//),
        // Shopify writes Decimal amounts its own way ("12.0").
        amount: { amount: "12.0", currencyCode: "USD" },
        createdAt: expect.any(String),
      },
    ]);
    expect(
      (await run(STORE_CREDIT_DEBIT, { id: customer.id, amount: money })).storeCreditAccountDebit.userErrors,
    ).toEqual([]);
    // Shopify's `type` filter: the debit is not a credit.
    const credits = await run(STORE_CREDIT_RECENT_CREDITS, {
      customerId: customer.id,
      accountQuery: "currency_code:USD",
    });
    expect(credits.customer?.storeCreditAccounts.nodes[0]?.transactions.nodes).toHaveLength(1);
    expect((await run(CUSTOMER_STORE_CREDIT, { id: customer.id })).customer?.storeCreditAccounts.nodes).toEqual([
      { id: expect.any(String), balance: { amount: "0.0", currencyCode: "USD" } },
    ]);
    // A gift card: its full code comes back once; a search by the code finds it, showing only its end.
    const card = await run(GIFT_CARD_CREATE, {
      input: { code: "PAYABCD2345WXYZ7", initialAmount: money, note: "Affiliate payout (payout:p1)" },
    });
    expect(card.giftCardCreate).toMatchObject({ giftCardCode: "PAYABCD2345WXYZ7", userErrors: [] });
    expect((await run(GIFT_CARDS_BY_CODE, { query: "payabcd2345wxyz7" })).giftCards.nodes).toEqual([
      {
        id: card.giftCardCreate.giftCard!.id,
        lastCharacters: "XYZ7",
        note: "Affiliate payout (payout:p1)",
        initialValue: { amount: "12.0", currencyCode: "USD" },
        createdAt: expect.any(String),
      },
    ]);
    const again = await run(GIFT_CARD_CREATE, { input: { code: "payabcd2345wxyz7", initialAmount: money, note: "x" } });
    expect(again.giftCardCreate).toMatchObject({ giftCard: null, userErrors: [{ code: "TAKEN" }] });
    const sub = await run(APP_SUBSCRIPTION_CREATE, {
      name: "Growth",
      returnUrl: "https://app.example/plans/activate",
      trialDays: 7,
      test: true,
      price: { amount: "29.00", currencyCode: "USD" },
      interval: "EVERY_30_DAYS",
    });
    expect((await run(ACTIVE_SUBSCRIPTIONS, {})).currentAppInstallation.activeSubscriptions).toEqual([]);
    const cancelled = await run(APP_SUBSCRIPTION_CANCEL, { id: sub.appSubscriptionCreate.appSubscription!.id });
    expect(cancelled.appSubscriptionCancel.appSubscription?.status).toBe("CANCELLED");
    const pixel = await run(WEB_PIXEL_CREATE, { settings: JSON.stringify({ app_url: server.url("") }) });
    expect(pixel.webPixelCreate.userErrors).toEqual([]);
    const pixelId = pixel.webPixelCreate.webPixel!.id;
    const moved = await run(WEB_PIXEL_UPDATE, {
      id: pixelId,
      settings: JSON.stringify({ app_url: "https://b.example" }),
    });
    expect(moved.webPixelUpdate.userErrors).toEqual([]);
    expect((await run(APP_WEB_PIXEL, {})).webPixel).toEqual({
      id: pixelId,
      settings: JSON.stringify({ app_url: "https://b.example" }),
    });
    const granted = (await run(GRANTED_SCOPES, {})).currentAppInstallation.accessScopes.map((s) => s.handle);
    expect(granted.sort()).toEqual([...sim.store.shop(SHOP).scopes].sort());
    // Leak watch ends a rotated code before anything else happens to it.
    const ended = (await run(DISCOUNT_CODE_DEACTIVATE, { id: discountId })).discountCodeDeactivate;
    expect(ended.userErrors).toEqual([]);
    expect(ended.codeDiscountNode?.id).toBe(discountId);
    expect((await run(DISCOUNT_CODE_DELETE, { id: discountId })).discountCodeDelete.deletedCodeDiscountId).toBe(
      discountId,
    );
    // A Flow trigger of the app's extensions is taken and recorded; an unknown handle is a userError.
    const payload = {
      "Leaked code": "ANNA7",
      "Leak reason": "r",
      "Affiliate ID": "a",
      "Affiliate email": "a@example.com",
      "Affiliate name": "A",
      "Referral code": "ANNA7",
    };
    expect(
      (await run(FLOW_TRIGGER_RECEIVE, { handle: "link-leak-flagged", payload })).flowTriggerReceive.userErrors,
    ).toEqual([]);
    expect(sim.store.shop(SHOP).flowTriggers).toMatchObject([{ handle: "link-leak-flagged", payload }]);
    expect(
      (await run(FLOW_TRIGGER_RECEIVE, { handle: "no-such-trigger", payload })).flowTriggerReceive.userErrors,
    ).toEqual([{ field: ["handle"], message: "Invalid handle 'no-such-trigger'." }]);

    // Each went over the wire and the store validated it against the schema.
    for (const request of sim.graphqlRequests()) expect(request.outcome).toMatchObject({ validated: true, errors: [] });
    expect([...ran].sort()).toEqual(ADMIN_OPERATIONS.map((op) => op.name).sort());
  });
});

describe("the charge confirmation page", () => {
  it("lets the merchant approve a subscription and sends them back to the app with the charge id", async () => {
    const { data } = await client.run(APP_SUBSCRIPTION_CREATE, {
      name: "Pro",
      returnUrl: server.url("/admin/plans/activate?plan_id=pro"),
      trialDays: 14,
      test: true,
      price: { amount: "49.00", currencyCode: "USD" },
      interval: "EVERY_30_DAYS",
    });
    const url = data.appSubscriptionCreate.confirmationUrl!;
    expect(url.startsWith(sim.url)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Pro");
    expect(html).toContain("49.0 USD every 30 days");
    expect(html).toContain("14 days");

    const decision = await fetch(url, {
      method: "POST",
      body: new URLSearchParams({ decision: "approve" }),
      redirect: "manual",
    });
    expect(decision.status).toBe(303);
    const back = new URL(decision.headers.get("location")!);
    const id = data.appSubscriptionCreate.appSubscription!.id;
    expect(back.toString()).toBe(server.url(`/admin/plans/activate?plan_id=pro&charge_id=${id.split("/").pop()}`));
    const active = await client.run(ACTIVE_SUBSCRIPTIONS, {});
    expect(active.data.currentAppInstallation.activeSubscriptions).toEqual([
      expect.objectContaining({ id, name: "Pro", status: "ACTIVE", trialDays: 14 }),
    ]);
    // A decided charge cannot be decided again.
    const again = await fetch(url, {
      method: "POST",
      body: new URLSearchParams({ decision: "decline" }),
      redirect: "manual",
    });
    expect(again.status).toBe(422);
  });
});

describe("Shopify's own billing library", () => {
  it("requests, checks and cancels a subscription against the store (what shopify-app-remix's billing API sends)", async () => {
    shopifyLib(); // installs the app's rewrite of https://{shop} calls to the simulator
    const api = shopifyApi({
      apiKey: API_KEY,
      apiSecretKey: API_SECRET_KEY,
      apiVersion: "2026-07" as ApiVersion,
      scopes: [],
      hostName: "app.example",
      isEmbeddedApp: true,
      logger: { level: 0 },
      billing: {
        Growth: {
          trialDays: 7,
          lineItems: [{ amount: 29, currencyCode: "USD", interval: BillingInterval.Every30Days }],
        },
      },
    } as Parameters<typeof shopifyApi>[0]);
    const session = new Session({
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      accessToken: sim.accessToken(SHOP),
    });
    const requested = (await api.billing.request({ session, plan: "Growth", isTest: true, returnObject: true })) as {
      confirmationUrl: string;
      appSubscription: { id: string; status: string };
    };
    expect(requested.appSubscription.status).toBe("PENDING");
    expect(await api.billing.check({ session, plans: ["Growth"], isTest: true })).toBe(false);
    sim.store.decideSubscription(SHOP, requested.appSubscription.id.split("/").pop()!, true);
    expect(await api.billing.check({ session, plans: ["Growth"], isTest: true })).toBe(true);
    const cancelled = await api.billing.cancel({
      session,
      subscriptionId: requested.appSubscription.id,
      isTest: true,
      prorate: true,
    });
    expect(cancelled.status).toBe("CANCELLED");
    for (const request of sim.graphqlRequests()) expect(request.outcome).toMatchObject({ validated: true, errors: [] });
  });
});

describe("orders in the store", () => {
  it("reach the app with the code the app created and the buyer's customer id, each under a new name", async () => {
    const shop = await getDb().shop.create({
      data: { domain: SHOP, name: "Wire", url: `https://${SHOP}`, adminEmail: "o@wire.example", pricingPlan: "growth" },
    });
    await client.run(DISCOUNT_CODE_BASIC_CREATE, {
      input: {
        title: "Friend code",
        code: "FRIEND-SAM",
        customerGets: { value: { percentage: 0.15 }, items: { all: true } },
      },
    });
    const placed = await sim.store.placeOrder(SHOP, {
      items: 2,
      discountCode: "friend-sam",
      customer: "sam.shopper@example.net",
    });
    expect(placed.deliveries.map((d) => [d.topic, d.status])).toEqual([
      ["orders/create", 200],
      ["orders/paid", 200],
    ]);
    const second = await sim.store.placeOrder(SHOP, { products: ["canvas-tote"] });
    await drainJobs();

    const orders = await getDb().order.findMany({ where: { shopId: shop.id }, orderBy: { name: "asc" } });
    expect(orders.map((o) => o.name)).toEqual(["#1001", "#1002"]);
    expect(orders[0]).toMatchObject({
      shopifyGid: `gid://shopify/Order/${placed.order.id}`,
      customerGid: "gid://shopify/Customer/9400000000",
      customerEmail: "sam.shopper@example.net",
      // 39.00 + 129.00 less 15 %.
      subtotal: 14280,
      currency: "USD",
    });
    expect(JSON.parse(orders[0]!.discountCodes)).toEqual(["FRIEND-SAM"]);
    expect(orders[1]).toMatchObject({ shopifyGid: `gid://shopify/Order/${second.order.id}`, subtotal: 4500 });
    // The store counts the use of the code, as Shopify does.
    const found = await client.run(CODE_DISCOUNT_BY_CODE, { code: "FRIEND-SAM" });
    expect(found.data.codeDiscountNodeByCode?.codeDiscount.asyncUsageCount).toBe(1);
  });
});
