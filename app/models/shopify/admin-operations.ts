// Every GraphQL document the app sends to Shopify's Admin API, in one place.
// A unit test (admin-operations.test.ts) validates each against Shopify's own
// schema for the app's API version, and refuses `#graphql` documents anywhere
// else in app/; the store simulator validates them again when they are sent.
// The typed client (admin-client.server.ts) sends only these.
//
// `usedBy` says which feature sends it. Operations marked "ready for ..."
// are for features still to be built (payouts in store credit and codes,
// refer-a-friend, Shopify Billing): validated and
// exercised against the simulator now, so those features start from a
// document known to be right.

export interface AdminOperation<TData, TVariables> {
  name: string;
  usedBy: string;
  document: string;
  // Type carriers only (never set): the shape of `data` and of the variables.
  readonly _data?: TData;
  readonly _variables?: TVariables;
}

function operation<TData, TVariables = Record<string, never>>(
  name: string,
  usedBy: string,
  document: string,
): AdminOperation<TData, TVariables> {
  return { name, usedBy, document };
}

type Money = { amount: string; currencyCode: string };
type UserError = { field: string[] | null; message: string; code?: string | null };
type PageInfo = { hasNextPage: boolean; endCursor: string | null };

export const SHOP_DETAILS = operation<{
  shop: {
    name: string;
    email: string;
    currencyCode: string;
    ianaTimezone: string;
    primaryDomain: { url: string };
    plan: { publicDisplayName: string };
    currencyFormats: { moneyFormat: string };
  };
}>(
  "AppShopDetails",
  "install: the shop's name, e-mail, currency, time zone and plan (shop/shopify-oauth.server.ts)",
  `#graphql
  query AppShopDetails {
    shop {
      name
      email
      currencyCode
      ianaTimezone
      primaryDomain {
        url
      }
      plan {
        publicDisplayName
      }
      currencyFormats {
        moneyFormat
      }
    }
  }`,
);

export const PRODUCT_COLLECTIONS = operation<
  { nodes: ({ id: string; collections: { nodes: { id: string }[] } } | null)[] },
  { ids: string[] }
>(
  "ProductCollections",
  "per-collection commission rules on new orders (shopify/product-collections.server.ts)",
  `#graphql
  query ProductCollections($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Product {
        id
        collections(first: 50) {
          nodes {
            id
          }
        }
      }
    }
  }`,
);

export interface CatalogueProduct {
  id: string;
  title: string;
  handle: string;
  status: "ACTIVE" | "ARCHIVED" | "DRAFT" | "UNLISTED";
  featuredMedia: { preview: { image: { url: string } | null } | null } | null;
  priceRangeV2: { minVariantPrice: Money };
}

export const CATALOGUE_PAGE = operation<
  { products: { nodes: CatalogueProduct[]; pageInfo: PageInfo } },
  { first: number; after: string | null }
>(
  "CataloguePage",
  "the portal's product catalogue, synced page by page at install (portal/catalogue-sync.server.ts)",
  `#graphql
  query CataloguePage($first: Int!, $after: String) {
    products(first: $first, after: $after, sortKey: ID) {
      nodes {
        id
        title
        handle
        status
        featuredMedia {
          preview {
            image {
              url
            }
          }
        }
        priceRangeV2 {
          minVariantPrice {
            amount
            currencyCode
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }`,
);

export interface CatalogueCollection {
  id: string;
  title: string;
  handle: string;
  image: { url: string } | null;
}

export const COLLECTIONS_PAGE = operation<
  { collections: { nodes: CatalogueCollection[]; pageInfo: PageInfo } },
  { first: number; after: string | null }
>(
  "CollectionsPage",
  "the collections the standalone picker of commission rules lists, read after the products (portal/catalogue-sync.server.ts)",
  `#graphql
  query CollectionsPage($first: Int!, $after: String) {
    collections(first: $first, after: $after, sortKey: ID) {
      nodes {
        id
        title
        handle
        image {
          url
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }`,
);

// ---- ready for payouts in discount codes and refer-a-friend ----------------------

export interface DiscountCodeBasicInput {
  title: string;
  code: string;
  startsAt?: string;
  endsAt?: string | null;
  usageLimit?: number | null;
  appliesOncePerCustomer?: boolean;
  context?: { all: "ALL" } | { customers: { add: string[] } };
  customerGets: {
    value: { percentage: number } | { discountAmount: { amount: string; appliesOnEachItem: boolean } };
    items: { all: true } | { products: { productsToAdd: string[] } } | { collections: { add: string[] } };
  };
  minimumRequirement?: { subtotal: { greaterThanOrEqualToSubtotal: string } } | null;
  combinesWith?: { orderDiscounts?: boolean; productDiscounts?: boolean; shippingDiscounts?: boolean };
}

export const DISCOUNT_CODE_BASIC_CREATE = operation<
  {
    discountCodeBasicCreate: {
      codeDiscountNode: {
        id: string;
        codeDiscount: { title: string; status: string; codes: { nodes: { code: string }[] } };
      } | null;
      userErrors: UserError[];
    };
  },
  { input: DiscountCodeBasicInput }
>(
  "DiscountCodeBasicCreate",
  "discount-code payouts (payouts/senders/discount-code.server.ts); ready for refer-a-friend codes (issue 13)",
  `#graphql
  mutation DiscountCodeBasicCreate($input: DiscountCodeBasicInput!) {
    discountCodeBasicCreate(basicCodeDiscount: $input) {
      codeDiscountNode {
        id
        codeDiscount {
          ... on DiscountCodeBasic {
            title
            status
            codes(first: 1) {
              nodes {
                code
              }
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const DISCOUNT_CODE_DELETE = operation<
  { discountCodeDelete: { deletedCodeDiscountId: string | null; userErrors: UserError[] } },
  { id: string }
>(
  "DiscountCodeDelete",
  "ready for withdrawing a refer-a-friend code or an unpaid payout code (issues 11, 13)",
  `#graphql
  mutation DiscountCodeDelete($id: ID!) {
    discountCodeDelete(id: $id) {
      deletedCodeDiscountId
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const DISCOUNT_CODE_DEACTIVATE = operation<
  {
    discountCodeDeactivate: {
      codeDiscountNode: { id: string; codeDiscount: { status?: string; endsAt?: string | null } } | null;
      userErrors: UserError[];
    };
  },
  { id: string }
>(
  "DiscountCodeDeactivate",
  "leak watch: the leaked code of a rotated flag is ended in Shopify (leaks/rotate-code.server.ts)",
  `#graphql
  mutation DiscountCodeDeactivate($id: ID!) {
    discountCodeDeactivate(id: $id) {
      codeDiscountNode {
        id
        codeDiscount {
          ... on DiscountCodeBasic {
            status
            endsAt
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const CODE_DISCOUNT_BY_CODE = operation<
  {
    codeDiscountNodeByCode: {
      id: string;
      codeDiscount: { title?: string; status?: string; asyncUsageCount?: number; usageLimit?: number | null };
    } | null;
  },
  { code: string }
>(
  "CodeDiscountByCode",
  "discount-code payouts: look the code up before creating it again (payouts/senders/discount-code.server.ts; issue 13)",
  `#graphql
  query CodeDiscountByCode($code: String!) {
    codeDiscountNodeByCode(code: $code) {
      id
      codeDiscount {
        ... on DiscountCodeBasic {
          title
          status
          asyncUsageCount
          usageLimit
        }
      }
    }
  }`,
);

export const DISCOUNT_REDEEM_CODE_BULK_ADD = operation<
  {
    discountRedeemCodeBulkAdd: {
      bulkCreation: { id: string; done: boolean; codesCount: number } | null;
      userErrors: UserError[];
    };
  },
  { discountId: string; codes: { code: string }[] }
>(
  "DiscountRedeemCodeBulkAdd",
  "ready for unique single-use friend codes under one discount (issue 13)",
  `#graphql
  mutation DiscountRedeemCodeBulkAdd($discountId: ID!, $codes: [DiscountRedeemCodeInput!]!) {
    discountRedeemCodeBulkAdd(discountId: $discountId, codes: $codes) {
      bulkCreation {
        id
        done
        codesCount
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const DISCOUNT_REDEEM_CODE_BULK_CREATION = operation<
  {
    discountRedeemCodeBulkCreation: {
      id: string;
      done: boolean;
      codesCount: number;
      importedCount: number;
      failedCount: number;
      codes: { nodes: { code: string; errors: UserError[] }[] };
    } | null;
  },
  { id: string }
>(
  "DiscountRedeemCodeBulkCreation",
  "ready for following a bulk code import until it is done (issue 13)",
  `#graphql
  query DiscountRedeemCodeBulkCreation($id: ID!) {
    discountRedeemCodeBulkCreation(id: $id) {
      id
      done
      codesCount
      importedCount
      failedCount
      codes(first: 250) {
        nodes {
          code
          errors {
            field
            message
            code
          }
        }
      }
    }
  }`,
);

export interface DiscountCodeFreeShippingInput {
  title: string;
  code: string;
  startsAt?: string;
  endsAt?: string | null;
  usageLimit?: number | null;
  appliesOncePerCustomer?: boolean;
  context?: { all: "ALL" } | { customers: { add: string[] } };
  destination: { all: true };
  minimumRequirement?: { subtotal: { greaterThanOrEqualToSubtotal: string } } | null;
  combinesWith?: { orderDiscounts?: boolean; productDiscounts?: boolean; shippingDiscounts?: boolean };
}

export const DISCOUNT_CODE_FREE_SHIPPING_CREATE = operation<
  {
    discountCodeFreeShippingCreate: {
      codeDiscountNode: {
        id: string;
        codeDiscount: { title: string; status: string; codes: { nodes: { code: string }[] } };
      } | null;
      userErrors: UserError[];
    };
  },
  { input: DiscountCodeFreeShippingInput }
>(
  "DiscountCodeFreeShippingCreate",
  "refer-a-friend friend codes offering free shipping (referrals/friend-codes.server.ts)",
  `#graphql
  mutation DiscountCodeFreeShippingCreate($input: DiscountCodeFreeShippingInput!) {
    discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) {
      codeDiscountNode {
        id
        codeDiscount {
          ... on DiscountCodeFreeShipping {
            title
            status
            codes(first: 1) {
              nodes {
                code
              }
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

// ---- ready for payouts in store credit --------------------------------------------

export const CUSTOMER_BY_EMAIL = operation<
  { customers: { nodes: { id: string; defaultEmailAddress: { emailAddress: string } | null; displayName: string }[] } },
  { query: string }
>(
  "CustomerByEmail",
  "ready for finding the customer an affiliate is (store credit payouts, issue 11)",
  `#graphql
  query CustomerByEmail($query: String!) {
    customers(first: 1, query: $query) {
      nodes {
        id
        defaultEmailAddress {
          emailAddress
        }
        displayName
      }
    }
  }`,
);

export const CUSTOMER_STORE_CREDIT = operation<
  { customer: { id: string; storeCreditAccounts: { nodes: { id: string; balance: Money }[] } } | null },
  { id: string }
>(
  "CustomerStoreCredit",
  "ready for showing an affiliate's store credit balance (issue 11)",
  `#graphql
  query CustomerStoreCredit($id: ID!) {
    customer(id: $id) {
      id
      storeCreditAccounts(first: 10) {
        nodes {
          id
          balance {
            amount
            currencyCode
          }
        }
      }
    }
  }`,
);

export const STORE_CREDIT_CREDIT = operation<
  {
    storeCreditAccountCredit: {
      storeCreditAccountTransaction: {
        id: string;
        amount: Money;
        balanceAfterTransaction: Money;
        account: { id: string };
      } | null;
      userErrors: UserError[];
    };
  },
  { id: string; amount: Money }
>(
  "StoreCreditCredit",
  "store credit payouts: credit the affiliate's customer account (payouts/senders/store-credit.server.ts)",
  `#graphql
  mutation StoreCreditCredit($id: ID!, $amount: MoneyInput!) {
    storeCreditAccountCredit(id: $id, creditInput: { creditAmount: $amount }) {
      storeCreditAccountTransaction {
        id
        amount {
          amount
          currencyCode
        }
        balanceAfterTransaction {
          amount
          currencyCode
        }
        account {
          id
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export interface RecentStoreCredit {
  id?: string;
  amount: Money;
  createdAt: string;
}

export const STORE_CREDIT_RECENT_CREDITS = operation<
  {
    customer: {
      id: string;
      storeCreditAccounts: { nodes: { id: string; transactions: { nodes: RecentStoreCredit[] } }[] };
    } | null;
  },
  { customerId: string; accountQuery: string }
>(
  "StoreCreditRecentCredits",
  "store credit payouts: the customer's latest credits in a currency, to find a credit made before a crash (payouts/senders/store-credit.server.ts)",
  `#graphql
  query StoreCreditRecentCredits($customerId: ID!, $accountQuery: String!) {
    customer(id: $customerId) {
      id
      storeCreditAccounts(first: 1, query: $accountQuery) {
        nodes {
          id
          transactions(first: 50, reverse: true, sortKey: CREATED_AT, query: "type:credit") {
            nodes {
              amount {
                amount
                currencyCode
              }
              createdAt
              ... on StoreCreditAccountCreditTransaction {
                id
              }
            }
          }
        }
      }
    }
  }`,
);

export const STORE_CREDIT_DEBIT = operation<
  {
    storeCreditAccountDebit: {
      storeCreditAccountTransaction: { id: string; amount: Money; balanceAfterTransaction: Money } | null;
      userErrors: UserError[];
    };
  },
  { id: string; amount: Money }
>(
  "StoreCreditDebit",
  "ready for clawing back store credit paid for a refunded order (issue 11)",
  `#graphql
  mutation StoreCreditDebit($id: ID!, $amount: MoneyInput!) {
    storeCreditAccountDebit(id: $id, debitInput: { debitAmount: $amount }) {
      storeCreditAccountTransaction {
        id
        amount {
          amount
          currencyCode
        }
        balanceAfterTransaction {
          amount
          currencyCode
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

// ---- Shopify Billing (pricing plans, docs/decisions/029) ------------------------------

export const APP_SUBSCRIPTION_CREATE = operation<
  {
    appSubscriptionCreate: {
      appSubscription: { id: string; status: string } | null;
      confirmationUrl: string | null;
      userErrors: UserError[];
    };
  },
  {
    name: string;
    returnUrl: string;
    trialDays: number;
    test: boolean;
    price: Money;
    interval: "EVERY_30_DAYS" | "ANNUAL";
  }
>(
  "AppSubscriptionCreate",
  "a paid plan chosen in the Shopify admin (plans/activate)",
  `#graphql
  mutation AppSubscriptionCreate(
    $name: String!
    $returnUrl: URL!
    $trialDays: Int!
    $test: Boolean!
    $price: MoneyInput!
    $interval: AppPricingInterval!
  ) {
    appSubscriptionCreate(
      name: $name
      returnUrl: $returnUrl
      trialDays: $trialDays
      test: $test
      lineItems: [{ plan: { appRecurringPricingDetails: { price: $price, interval: $interval } } }]
    ) {
      appSubscription {
        id
        status
      }
      confirmationUrl
      userErrors {
        field
        message
      }
    }
  }`,
);

export const ACTIVE_SUBSCRIPTIONS = operation<{
  currentAppInstallation: {
    activeSubscriptions: {
      id: string;
      name: string;
      status: string;
      test: boolean;
      trialDays: number;
      currentPeriodEnd: string | null;
    }[];
  };
}>(
  "ActiveSubscriptions",
  "the plan check after the merchant returns from the confirmation page",
  `#graphql
  query ActiveSubscriptions {
    currentAppInstallation {
      activeSubscriptions {
        id
        name
        status
        test
        trialDays
        currentPeriodEnd
      }
    }
  }`,
);

export const APP_SUBSCRIPTION_CANCEL = operation<
  { appSubscriptionCancel: { appSubscription: { id: string; status: string } | null; userErrors: UserError[] } },
  { id: string }
>(
  "AppSubscriptionCancel",
  "ending the paid charge when the merchant goes back to the free plan",
  `#graphql
  mutation AppSubscriptionCancel($id: ID!) {
    appSubscriptionCancel(id: $id) {
      appSubscription {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }`,
);

// ---- the web pixel (extensions/affiliate-pixel) and granted scopes ------------------

type WebPixel = { id: string; settings: string };
type WebPixelPayload = { webPixel: WebPixel | null; userErrors: UserError[] };

export const WEB_PIXEL_CREATE = operation<{ webPixelCreate: WebPixelPayload }, { settings: string }>(
  "WebPixelCreate",
  "the shop's web pixel, created at install (shop/web-pixel.server.ts)",
  `#graphql
  mutation WebPixelCreate($settings: JSON!) {
    webPixelCreate(webPixel: { settings: $settings }) {
      webPixel {
        id
        settings
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const WEB_PIXEL_UPDATE = operation<{ webPixelUpdate: WebPixelPayload }, { id: string; settings: string }>(
  "WebPixelUpdate",
  "the shop's web pixel, pointed at a new app URL (shop/web-pixel.server.ts)",
  `#graphql
  mutation WebPixelUpdate($id: ID!, $settings: JSON!) {
    webPixelUpdate(id: $id, webPixel: { settings: $settings }) {
      webPixel {
        id
        settings
      }
      userErrors {
        field
        message
        code
      }
    }
  }`,
);

export const APP_WEB_PIXEL = operation<{ webPixel: WebPixel | null }>(
  "AppWebPixel",
  "the app's web pixel on the shop, when creating one finds it taken (shop/web-pixel.server.ts)",
  `#graphql
  query AppWebPixel {
    webPixel {
      id
      settings
    }
  }`,
);

export const GRANTED_SCOPES = operation<{ currentAppInstallation: { accessScopes: { handle: string }[] } }>(
  "GrantedScopes",
  "the scopes the shop has granted, read back on app/scopes_update (shop/granted-scopes.server.ts)",
  `#graphql
  query GrantedScopes {
    currentAppInstallation {
      accessScopes {
        handle
      }
    }
  }`,
);

/** Every operation, for the schema test. */
type GiftCardView = {
  id: string;
  lastCharacters: string;
  note: string | null;
  initialValue: Money;
  createdAt: string;
};

export const GIFT_CARD_CREATE = operation<
  { giftCardCreate: { giftCard: GiftCardView | null; giftCardCode: string | null; userErrors: UserError[] } },
  {
    input: {
      code: string;
      initialAmount: Money;
      note: string;
      customerId?: string;
    };
  }
>(
  "GiftCardCreate",
  "gift card payouts: issue the affiliate's gift card (payouts/senders/gift-card.server.ts; issue 30)",
  `#graphql
  mutation GiftCardCreate($input: GiftCardCreateInput!) {
    giftCardCreate(input: $input) {
      giftCard {
        id
        lastCharacters
        note
        initialValue {
          amount
          currencyCode
        }
        createdAt
      }
      giftCardCode
      userErrors {
        field
        code
        message
      }
    }
  }`,
);

export const GIFT_CARDS_BY_CODE = operation<{ giftCards: { nodes: GiftCardView[] } }, { query: string }>(
  "GiftCardsByCode",
  "gift card payouts: look the payout's card up by its code before issuing it again (payouts/senders/gift-card.server.ts; issue 30)",
  `#graphql
  query GiftCardsByCode($query: String!) {
    giftCards(first: 5, query: $query) {
      nodes {
        id
        lastCharacters
        note
        initialValue {
          amount
          currencyCode
        }
        createdAt
      }
    }
  }`,
);

// ---- Shopify Flow ---------------------------------------------------------------

export const FLOW_TRIGGER_RECEIVE = operation<
  { flowTriggerReceive: { userErrors: { field: string[] | null; message: string }[] } },
  { handle: string; payload: Record<string, unknown> }
>(
  "FlowTriggerReceive",
  "Shopify Flow: starts the workflows of one of the app's triggers (flow/send-flow-trigger.server.ts; issue 32)",
  `#graphql
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors {
        field
        message
      }
    }
  }`,
);

export const ADMIN_OPERATIONS: AdminOperation<unknown, unknown>[] = [
  SHOP_DETAILS,
  PRODUCT_COLLECTIONS,
  CATALOGUE_PAGE,
  COLLECTIONS_PAGE,
  DISCOUNT_CODE_BASIC_CREATE,
  DISCOUNT_CODE_FREE_SHIPPING_CREATE,
  DISCOUNT_CODE_DELETE,
  DISCOUNT_CODE_DEACTIVATE,
  CODE_DISCOUNT_BY_CODE,
  DISCOUNT_REDEEM_CODE_BULK_ADD,
  DISCOUNT_REDEEM_CODE_BULK_CREATION,
  CUSTOMER_BY_EMAIL,
  CUSTOMER_STORE_CREDIT,
  STORE_CREDIT_CREDIT,
  STORE_CREDIT_RECENT_CREDITS,
  STORE_CREDIT_DEBIT,
  APP_SUBSCRIPTION_CREATE,
  ACTIVE_SUBSCRIPTIONS,
  APP_SUBSCRIPTION_CANCEL,
  WEB_PIXEL_CREATE,
  WEB_PIXEL_UPDATE,
  APP_WEB_PIXEL,
  GRANTED_SCOPES,
  GIFT_CARD_CREATE,
  GIFT_CARDS_BY_CODE,
  FLOW_TRIGGER_RECEIVE,
] as AdminOperation<unknown, unknown>[];
