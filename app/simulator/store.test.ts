import { describe, expect, it, onTestFinished, vi } from "vitest";
import {
  ACTIVE_SUBSCRIPTIONS,
  APP_SUBSCRIPTION_CREATE,
  CATALOGUE_PAGE,
  CODE_DISCOUNT_BY_CODE,
  DISCOUNT_CODE_BASIC_CREATE,
  DISCOUNT_CODE_DELETE,
  DISCOUNT_CODE_FREE_SHIPPING_CREATE,
  DISCOUNT_REDEEM_CODE_BULK_ADD,
  DISCOUNT_REDEEM_CODE_BULK_CREATION,
  PRODUCT_COLLECTIONS,
  STORE_CREDIT_CREDIT,
  STORE_CREDIT_DEBIT,
  WEB_PIXEL_CREATE,
  type AdminOperation,
} from "~/models/shopify/admin-operations";
import { StoreSimulator } from "./store";

// The simulated Admin API, request by request (no HTTP here; see
// tests/db/store-simulator.test.ts for the wire): Shopify's error shapes,
// query cost and throttling, access scopes, paging, and the state behind
// each mutation with the userErrors Shopify returns for bad input.

const SHOP = "unit-shop.myshopify.com";
const ALL_SCOPES = [
  "read_products",
  "write_discounts",
  "read_customers",
  "write_customers",
  "write_store_credit_account_transactions",
  "read_store_credit_accounts",
  "write_pixels",
  "read_customer_events",
];

function setup(scopes = ALL_SCOPES) {
  const store = new StoreSimulator({ app: { apiKey: "key", apiSecret: "secret" }, scopes, log: () => {} });
  store.baseUrl = "http://127.0.0.1:9";
  const shop = store.shop(SHOP);
  const gql = (query: string, variables?: unknown) => store.graphql(shop, { query, variables });
  const run = <T, V>(op: AdminOperation<T, V>, variables: V) => {
    const outcome = store.graphql(shop, { query: op.document, variables });
    expect(outcome.errors, JSON.stringify(outcome.errors)).toEqual([]);
    return outcome.body.data as T;
  };
  return { store, shop, gql, run };
}

const percentCode = (code: string, extra: Record<string, unknown> = {}) => ({
  input: {
    title: `${code} for a friend`,
    code,
    customerGets: { value: { percentage: 0.15 }, items: { all: true as const } },
    ...extra,
  },
});

describe("documents Shopify would refuse", () => {
  it("an unknown field: HTTP 200, errors only, in Shopify's words", () => {
    const { gql } = setup();
    const out = gql(`query Shop { shop { name currencyCod } }`);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      errors: [
        {
          message: "Field 'currencyCod' doesn't exist on type 'Shop'",
          locations: [{ line: 1, column: 26 }],
          path: ["query Shop", "shop", "currencyCod"],
          extensions: { code: "undefinedField", typeName: "Shop", fieldName: "currencyCod" },
        },
      ],
    });
    expect(out.validated).toBe(false);
  });

  it.each([
    [
      "a missing required argument",
      `{ product { id } }`,
      {
        message: "Field 'product' is missing required arguments: id",
        extensions: { code: "missingRequiredArguments" },
      },
    ],
    [
      "an argument the field does not take",
      `{ shop(id: 1) { id } }`,
      { message: "Field 'shop' doesn't accept argument 'id'", extensions: { code: "argumentNotAccepted" } },
    ],
    [
      "an undeclared variable",
      `query Q { product(id: $id) { id } }`,
      { message: "Variable $id is used by Q but not declared", extensions: { code: "variableNotDefined" } },
    ],
    [
      "a variable of the wrong type for its argument",
      `query Q($id: String!) { product(id: $id) { id } }`,
      { message: "Type mismatch on variable $id (String! / ID!)", extensions: { code: "variableMismatch" } },
    ],
    [
      "a scalar without a selection",
      `{ shop }`,
      {
        message: "Field 'shop' returns Shop but has no selections. Did you mean 'shop { ... }'?",
        extensions: { code: "selectionMismatch" },
      },
    ],
    ["a syntax error", `{ shop { name }`, { message: expect.stringMatching(/^Parse error: .* at \[1, 16\]$/) }],
  ])("%s", (_, query, expected) => {
    const out = setup().gql(query);
    expect(out.status).toBe(200);
    expect(out.body.data).toBeUndefined();
    expect((out.body.errors as unknown[])[0]).toMatchObject(expected);
  });

  it("a variable whose value does not fit its type", () => {
    const out = setup().gql(PRODUCT_COLLECTIONS.document, { ids: ["gid://shopify/Product/1", null] });
    expect(out.body).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(/^Variable \$ids of type \[ID!\]! was provided invalid value for 1 \(/),
          extensions: expect.objectContaining({
            code: "INVALID_VARIABLE",
            problems: [expect.objectContaining({ path: [1] })],
          }),
        }),
      ],
    });
  });

  it("a body without a query: HTTP 400", () => {
    expect(setup().gql("")).toMatchObject({
      status: 400,
      body: { errors: { query: "Required parameter missing or invalid" } },
    });
  });

  it("a field the simulator does not model is named, not silently answered", () => {
    const { gql } = setup();
    const root = gql(`{ orders(first: 1) { nodes { id } } }`);
    expect(root.errors[0]).toMatchObject({
      message: "The store simulator does not model QueryRoot.orders.",
      extensions: { code: "SIMULATOR_UNSUPPORTED" },
    });
  });
});

describe("query cost and throttling", () => {
  it("reports Shopify's cost extension: requested from the page sizes, actual from what came back", () => {
    // The clock stands still, so the bucket does not refill during the request.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-07-15T12:00:00Z") });
    onTestFinished(() => void vi.useRealTimers());
    const { gql } = setup();
    const out = gql(CATALOGUE_PAGE.document, { first: 100, after: null });
    // 2 + 100 × (product 1 + featuredMedia 1 + preview 1 + image 1 + priceRangeV2 1 + minVariantPrice 1);
    // 6 products came back, without media: 2 + 6 × (product, priceRangeV2, minVariantPrice).
    expect(out.body.extensions).toEqual({
      cost: {
        requestedQueryCost: 602,
        actualQueryCost: 20,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1980, restoreRate: 100 },
      },
    });
    const nodes = gql(PRODUCT_COLLECTIONS.document, {
      ids: Array.from({ length: 10 }, (_, i) => `gid://shopify/Product/${i}`),
    });
    expect(nodes.cost).toEqual({ requested: 10 * (1 + 2 + 50), actual: 0 });
    expect(
      gql(STORE_CREDIT_DEBIT.document, { id: "gid://shopify/Customer/1", amount: { amount: "1", currencyCode: "USD" } })
        .cost,
    ).toEqual({
      requested: 10,
      actual: 10,
    });
  });

  it("refuses a query above the single-query limit of 1,000", () => {
    const out = setup().gql(`{ products(first: 250) { nodes { variants(first: 250) { nodes { id } } } } }`);
    expect(out.body.data).toBeUndefined();
    expect((out.body.errors as unknown[])[0]).toMatchObject({
      extensions: { code: "MAX_COST_EXCEEDED", cost: 2 + 250 * (1 + 2 + 250), maxCost: 1000 },
    });
  });

  it("answers THROTTLED when the bucket cannot hold the requested cost, and when a test asks for it", () => {
    const { store, gql } = setup();
    store.bucket(SHOP).set(300);
    const throttled = gql(CATALOGUE_PAGE.document, { first: 100, after: null });
    expect(throttled.body).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 602,
          actualQueryCost: null,
          throttleStatus: expect.objectContaining({ currentlyAvailable: expect.any(Number) }),
        },
      },
    });
    // A smaller page fits.
    expect(gql(CATALOGUE_PAGE.document, { first: 10, after: null }).throttled).toBe(false);
    store.bucket(SHOP).set(2000);
    store.throttleNext(SHOP, 2);
    expect([1, 2, 3].map(() => gql(`{ shop { name } }`).throttled)).toEqual([true, true, false]);
  });

  it("refills the bucket at the restore rate", () => {
    const { store } = setup();
    const bucket = store.bucket(SHOP);
    bucket.set(0, 1_000_000);
    expect(bucket.status(1_002_500).currentlyAvailable).toBe(250);
    expect(bucket.take(300, 1_002_500)).toBe(false);
    expect(bucket.take(250, 1_002_500)).toBe(true);
    expect(bucket.status(1_100_000).currentlyAvailable).toBe(2000);
  });
});

describe("access scopes", () => {
  it("denies a field the app has no scope for, as Shopify does", () => {
    const { gql } = setup(["read_products", "write_discounts"]);
    const out = gql(STORE_CREDIT_CREDIT.document, {
      id: "gid://shopify/Customer/9400000000",
      amount: { amount: "5.00", currencyCode: "USD" },
    });
    expect(out.body.data).toEqual({ storeCreditAccountCredit: null });
    expect(out.errors).toEqual([
      expect.objectContaining({
        message:
          "Access denied for storeCreditAccountCredit field. Required access: `write_store_credit_account_transactions` access scope.",
        path: ["storeCreditAccountCredit"],
        extensions: expect.objectContaining({ code: "ACCESS_DENIED" }),
      }),
    ]);
  });
});

describe("paging and search", () => {
  it("pages forward and back with cursors, sorts and reverses", () => {
    const { gql } = setup();
    type Page = {
      products: {
        nodes: { title: string }[];
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string };
      };
    };
    const page = (args: string) =>
      gql(`{ products(${args}) { nodes { title } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`)
        .body.data as Page;
    const one = page("first: 4");
    expect(one.products.nodes.map((n) => n.title)).toEqual([
      "Merino Beanie",
      "Trail Runner Shoes",
      "Canvas Tote",
      "Insulated Bottle",
    ]);
    expect(one.products.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const two = page(`first: 4, after: "${one.products.pageInfo.endCursor}"`);
    expect(two.products.nodes.map((n) => n.title)).toEqual(["Rain Shell Jacket", "Wool Hiking Socks"]);
    expect(two.products.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = page(`last: 2, before: "${two.products.pageInfo.startCursor}"`);
    expect(back.products.nodes.map((n) => n.title)).toEqual(["Canvas Tote", "Insulated Bottle"]);
    expect(page("first: 2, sortKey: TITLE").products.nodes.map((n) => n.title)).toEqual([
      "Canvas Tote",
      "Insulated Bottle",
    ]);
    expect(page("first: 1, reverse: true").products.nodes.map((n) => n.title)).toEqual(["Wool Hiking Socks"]);
    expect(setup().gql(`{ products { nodes { id } } }`).errors[0]!.message).toBe(
      "you must provide one of first or last",
    );
    expect(setup().gql(`{ products(first: 1, after: "nonsense") { nodes { id } } }`).errors[0]!.message).toBe(
      "Invalid cursor for current pagination sort.",
    );
  });

  it("filters with Shopify's search syntax and warns about fields it does not know", () => {
    const { gql } = setup();
    const out = gql(
      `{ customers(first: 5, query: "email:rita.returns@example.net") { nodes { email: defaultEmailAddress { emailAddress } } } }`,
    );
    expect(out.body.data).toEqual({ customers: { nodes: [{ email: { emailAddress: "rita.returns@example.net" } }] } });
    const collections = gql(`{ products(first: 10, query: "status:active product_type:Socks") { nodes { handle } } }`);
    expect(collections.body.data).toEqual({ products: { nodes: [{ handle: "wool-hiking-socks" }] } });
    const warned = gql(`{ products(first: 1, query: "colour:red") { nodes { id } } }`);
    expect(warned.body.extensions).toMatchObject({
      search: [
        {
          path: ["products"],
          query: "colour:red",
          warnings: [{ field: "colour", message: "Invalid search field for this query." }],
        },
      ],
    });
  });
});

describe("discount codes", () => {
  it("creates a code, finds it by code in any case, refuses a duplicate, and deletes it", () => {
    const { run, gql } = setup();
    const created = run(DISCOUNT_CODE_BASIC_CREATE, percentCode("ANNA-15"));
    const node = created.discountCodeBasicCreate.codeDiscountNode!;
    expect(node.codeDiscount).toEqual({
      title: "ANNA-15 for a friend",
      status: "ACTIVE",
      codes: { nodes: [{ code: "ANNA-15" }] },
    });
    expect(run(CODE_DISCOUNT_BY_CODE, { code: "anna-15" }).codeDiscountNodeByCode).toMatchObject({ id: node.id });

    const again = run(DISCOUNT_CODE_BASIC_CREATE, percentCode("anna-15"));
    expect(again.discountCodeBasicCreate).toEqual({
      codeDiscountNode: null,
      userErrors: [
        {
          field: ["basicCodeDiscount", "code"],
          message: "Code must be unique. Please try a different code.",
          code: "TAKEN",
        },
      ],
    });

    expect(run(DISCOUNT_CODE_DELETE, { id: node.id }).discountCodeDelete).toEqual({
      deletedCodeDiscountId: node.id,
      userErrors: [],
    });
    expect(run(CODE_DISCOUNT_BY_CODE, { code: "ANNA-15" }).codeDiscountNodeByCode).toBeNull();
    expect(run(DISCOUNT_CODE_DELETE, { id: node.id }).discountCodeDelete.userErrors).toEqual([
      { field: ["id"], message: "Discount does not exist", code: "INVALID" },
    ]);
    expect(gql(`{ codeDiscountNode(id: "${node.id}") { id } }`).body.data).toEqual({ codeDiscountNode: null });
  });

  it("creates a free-shipping code with a minimum and an end, shares the code space, and deletes it", () => {
    const { run } = setup();
    const input = {
      title: "Free shipping for a friend",
      code: "SHIP-ANNA",
      endsAt: "2099-01-01T00:00:00Z",
      appliesOncePerCustomer: true,
      context: { all: "ALL" as const },
      destination: { all: true as const },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "25.00" } },
    };
    const created = run(DISCOUNT_CODE_FREE_SHIPPING_CREATE, { input }).discountCodeFreeShippingCreate;
    expect(created.userErrors).toEqual([]);
    expect(created.codeDiscountNode!.codeDiscount).toEqual({
      title: "Free shipping for a friend",
      status: "ACTIVE",
      codes: { nodes: [{ code: "SHIP-ANNA" }] },
    });
    const id = created.codeDiscountNode!.id;
    expect(run(CODE_DISCOUNT_BY_CODE, { code: "ship-anna" }).codeDiscountNodeByCode!.id).toBe(id);
    // One code space with basic codes, and Shopify's error path names the free-shipping input.
    expect(run(DISCOUNT_CODE_BASIC_CREATE, percentCode("SHIP-ANNA")).discountCodeBasicCreate.userErrors[0]!.code).toBe(
      "TAKEN",
    );
    expect(
      run(DISCOUNT_CODE_FREE_SHIPPING_CREATE, { input: { ...input, title: "" } }).discountCodeFreeShippingCreate
        .userErrors[0]!.field,
    ).toEqual(["freeShippingCodeDiscount", "code"]);
    expect(run(DISCOUNT_CODE_DELETE, { id }).discountCodeDelete.deletedCodeDiscountId).toBe(id);
    expect(run(CODE_DISCOUNT_BY_CODE, { code: "SHIP-ANNA" }).codeDiscountNodeByCode).toBeNull();
  });

  it.each([
    [
      "a missing customer",
      { context: { customers: { add: ["gid://shopify/Customer/404"] } } },
      ["basicCodeDiscount", "context", "customers", "add", "0"],
      "INVALID",
    ],
    [
      "a percentage above 100 %",
      { customerGets: { value: { percentage: 1.5 }, items: { all: true } } },
      ["basicCodeDiscount", "customerGets", "value", "percentage"],
      "VALUE_OUTSIDE_RANGE",
    ],
    [
      "an end before the start",
      { startsAt: "2026-08-01T00:00:00Z", endsAt: "2026-07-01T00:00:00Z" },
      ["basicCodeDiscount", "endsAt"],
      "END_DATE_BEFORE_START_DATE",
    ],
    ["a blank code", { code: " " }, ["basicCodeDiscount", "code"], "BLANK"],
    [
      "an unknown product",
      {
        customerGets: {
          value: { percentage: 0.1 },
          items: { products: { productsToAdd: ["gid://shopify/Product/404"] } },
        },
      },
      ["basicCodeDiscount", "customerGets", "items", "products", "productsToAdd", "0"],
      "INVALID",
    ],
  ])("answers userErrors for %s and creates nothing", (_, patch, field, code) => {
    const { run, shop } = setup();
    const before = shop.discounts.length;
    const input = { ...percentCode("BAD").input, ...patch };
    const out = run(DISCOUNT_CODE_BASIC_CREATE, { input: input as never });
    expect(out.discountCodeBasicCreate.codeDiscountNode).toBeNull();
    expect(out.discountCodeBasicCreate.userErrors).toEqual([expect.objectContaining({ field, code })]);
    expect(shop.discounts).toHaveLength(before);
  });

  it("adds redeem codes in bulk: queued first, then done with a result per code", () => {
    const { run } = setup();
    const id = run(DISCOUNT_CODE_BASIC_CREATE, percentCode("BULK-0")).discountCodeBasicCreate.codeDiscountNode!.id;
    const added = run(DISCOUNT_REDEEM_CODE_BULK_ADD, {
      discountId: id,
      codes: [{ code: "BULK-1" }, { code: "BULK-2" }, { code: "bulk-1" }, { code: "FRIEND10" }],
    }).discountRedeemCodeBulkAdd;
    expect(added).toMatchObject({ bulkCreation: { done: false, codesCount: 4 }, userErrors: [] });
    const later = run(DISCOUNT_REDEEM_CODE_BULK_CREATION, {
      id: added.bulkCreation!.id,
    }).discountRedeemCodeBulkCreation!;
    expect(later).toMatchObject({ done: true, codesCount: 4, importedCount: 2, failedCount: 2 });
    expect(later.codes.nodes.map((c) => [c.code, c.errors.map((e) => e.code)])).toEqual([
      ["BULK-1", []],
      ["BULK-2", []],
      ["bulk-1", ["TAKEN"]],
      ["FRIEND10", ["TAKEN"]],
    ]);
    expect(run(CODE_DISCOUNT_BY_CODE, { code: "bulk-2" }).codeDiscountNodeByCode!.id).toBe(id);
    const missing = run(DISCOUNT_REDEEM_CODE_BULK_ADD, {
      discountId: "gid://shopify/DiscountCodeNode/1",
      codes: [{ code: "X" }],
    });
    expect(missing.discountRedeemCodeBulkAdd.userErrors).toEqual([
      { field: ["discountId"], message: "Code discount does not exist.", code: "INVALID" },
    ]);
  });
});

describe("store credit", () => {
  const SAM = "gid://shopify/Customer/9400000000";
  const usd = (amount: string) => ({ amount, currencyCode: "USD" });

  it("credits a customer (opening an account), debits it, and refuses to overdraw", () => {
    const { run, gql } = setup();
    const credit = run(STORE_CREDIT_CREDIT, { id: SAM, amount: usd("25.00") }).storeCreditAccountCredit;
    expect(credit.userErrors).toEqual([]);
    expect(credit.storeCreditAccountTransaction).toMatchObject({
      amount: usd("25.0"),
      balanceAfterTransaction: usd("25.0"),
    });
    const account = credit.storeCreditAccountTransaction!.account.id;
    run(STORE_CREDIT_CREDIT, { id: account, amount: usd("4.50") });
    expect(
      run(STORE_CREDIT_DEBIT, { id: SAM, amount: usd("10") }).storeCreditAccountDebit.storeCreditAccountTransaction,
    ).toMatchObject({
      amount: usd("-10.0"),
      balanceAfterTransaction: usd("19.5"),
    });
    expect(run(STORE_CREDIT_DEBIT, { id: account, amount: usd("20.00") }).storeCreditAccountDebit.userErrors).toEqual([
      expect.objectContaining({ code: "INSUFFICIENT_FUNDS" }),
    ]);
    const balance = gql(
      `{ customer(id: "${SAM}") { storeCreditAccounts(first: 5) { nodes { id balance { amount currencyCode } } } } }`,
    );
    expect(balance.body.data).toEqual({
      customer: { storeCreditAccounts: { nodes: [{ id: account, balance: usd("19.5") }] } },
    });
  });

  it.each([
    ["a customer that does not exist", "gid://shopify/Customer/404", usd("5"), "OWNER_NOT_FOUND"],
    ["a zero amount", SAM, usd("0"), "NEGATIVE_OR_ZERO_AMOUNT"],
    ["a currency the shop does not sell in", SAM, { amount: "5", currencyCode: "EUR" }, "UNSUPPORTED_CURRENCY"],
  ])("refuses to credit %s", (_, id, amount, code) => {
    const { run, shop } = setup();
    expect(run(STORE_CREDIT_CREDIT, { id, amount }).storeCreditAccountCredit.userErrors).toEqual([
      expect.objectContaining({ code }),
    ]);
    expect(shop.storeCreditAccounts).toEqual([]);
  });
});

describe("billing and the web pixel", () => {
  it("creates a pending subscription with a confirmation URL the simulator serves; only approved ones are active", () => {
    const { store, run } = setup();
    const created = run(APP_SUBSCRIPTION_CREATE, {
      name: "Growth",
      returnUrl: "https://app.example/admin/plans/activate",
      trialDays: 14,
      test: true,
      price: { amount: "29.00", currencyCode: "USD" },
      interval: "EVERY_30_DAYS",
    }).appSubscriptionCreate;
    expect(created.appSubscription).toMatchObject({ status: "PENDING" });
    expect(created.confirmationUrl).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:9/shops/${SHOP}/admin/charges/\\d+/\\d+/RecurringApplicationCharge/confirm_recurring_application_charge\\?signature=`,
      ),
    );
    expect(run(ACTIVE_SUBSCRIPTIONS, {}).currentAppInstallation.activeSubscriptions).toEqual([]);
    store.decideSubscription(SHOP, created.appSubscription!.id.split("/").pop()!, true);
    expect(run(ACTIVE_SUBSCRIPTIONS, {}).currentAppInstallation.activeSubscriptions).toEqual([
      expect.objectContaining({ name: "Growth", status: "ACTIVE", test: true, trialDays: 14 }),
    ]);
    const bad = run(APP_SUBSCRIPTION_CREATE, {
      name: "",
      returnUrl: "javascript:alert(1)",
      trialDays: 0,
      test: true,
      price: { amount: "0", currencyCode: "USD" },
      interval: "EVERY_30_DAYS",
    }).appSubscriptionCreate;
    expect(bad.userErrors.map((e) => e.field)).toEqual([
      ["name"],
      ["returnUrl"],
      ["lineItems", "0", "plan", "appRecurringPricingDetails", "price"],
    ]);
  });

  it("activates the web pixel with settings that fit the extension's definition, once", () => {
    const { run } = setup();
    const wrong = run(WEB_PIXEL_CREATE, { settings: JSON.stringify({ appUrl: "https://x" }) }).webPixelCreate;
    expect(wrong.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_SETTINGS", field: ["webPixel", "settings"] }),
    ]);
    const ok = run(WEB_PIXEL_CREATE, { settings: JSON.stringify({ app_url: "https://app.example" }) }).webPixelCreate;
    expect(ok).toMatchObject({ webPixel: { settings: '{"app_url":"https://app.example"}' }, userErrors: [] });
    expect(
      run(WEB_PIXEL_CREATE, { settings: JSON.stringify({ app_url: "https://app.example" }) }).webPixelCreate.userErrors,
    ).toEqual([expect.objectContaining({ code: "TAKEN" })]);
  });
});
