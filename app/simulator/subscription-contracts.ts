import { gid } from "./admin-common";
import { CheckoutError, placeOrder } from "./orders";
import { nextId, type OrderRec, type ShopState, type StoreState } from "./store-state";

// Subscription contracts in the simulated store, as a subscription app makes
// them through Shopify: a contract from the order a buyer checked out with a
// selling plan (subscription_contracts/create), its status changes
// (subscription_contracts/update), and the renewal orders its billing
// attempts create. A renewal order is an ordinary order of the same buyer
// and products whose source_name is "subscription_contract" and which
// carries no checkout, cart attributes or landing page.

export type ContractStatus = "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED";

export interface ContractRec {
  id: string;
  customerId: string;
  originOrderId: string;
  currency: string;
  status: ContractStatus;
  revisionId: number;
  interval: "DAY" | "WEEK" | "MONTH" | "YEAR";
  intervalCount: number;
  maxCycles: number | null;
  productIds: string[];
  quantity: number;
  /** Made by another subscription app: its webhooks go to that app, never to this one. */
  byAnotherApp: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Ids are written as bare JSON numbers (see orders.ts serializeBody). */
const bare = (id: string) => `@@${id}`;

export function contractsOf(shop: ShopState): ContractRec[] {
  shop.subscriptionContracts ??= [];
  return shop.subscriptionContracts;
}

export function createContract(
  state: StoreState,
  shop: ShopState,
  origin: OrderRec,
  options: {
    interval?: ContractRec["interval"];
    intervalCount?: number;
    maxCycles?: number | null;
    byAnotherApp?: boolean;
    now?: Date;
  } = {},
): ContractRec {
  const now = (options.now ?? new Date()).toISOString();
  const contract: ContractRec = {
    id: nextId(state),
    customerId: origin.customerId,
    originOrderId: origin.id,
    currency: origin.currency,
    status: "ACTIVE",
    revisionId: 1,
    interval: options.interval ?? "MONTH",
    intervalCount: options.intervalCount ?? 1,
    maxCycles: options.maxCycles ?? null,
    productIds: [...new Set(origin.lines.map((l) => l.productId))],
    quantity: origin.lines[0]?.quantity ?? 1,
    byAnotherApp: options.byAnotherApp ?? false,
    createdAt: now,
    updatedAt: now,
  };
  contractsOf(shop).push(contract);
  return contract;
}

export function findContract(shop: ShopState, wanted = "last"): ContractRec {
  const all = contractsOf(shop);
  const found =
    wanted === "last" ? all.at(-1) : all.find((c) => c.id === wanted || gid("SubscriptionContract", c.id) === wanted);
  if (!found) throw new CheckoutError(`No subscription contract ${wanted} in the store.`);
  return found;
}

export function changeContractStatus(contract: ContractRec, status: ContractStatus, now = new Date()) {
  contract.status = status;
  contract.revisionId += 1;
  contract.updatedAt = now.toISOString();
}

/** A successful billing attempt of an active contract: its renewal order. */
export function billContract(state: StoreState, shop: ShopState, contract: ContractRec, now?: Date): OrderRec {
  if (contract.status !== "ACTIVE")
    throw new CheckoutError(`Subscription contract ${contract.id} is ${contract.status.toLowerCase()}.`);
  const order = placeOrder(state, shop, {
    products: contract.productIds,
    quantity: contract.quantity,
    customer: contract.customerId,
    now,
  });
  order.sourceName = "subscription_contract";
  order.checkoutToken = null;
  order.landingSite = null;
  return order;
}

/** The subscription_contracts/create and /update body (Shopify's REST webhook shape). */
export function contractPayload(contract: ContractRec) {
  const policy = { interval: contract.interval.toLowerCase(), interval_count: contract.intervalCount };
  return {
    admin_graphql_api_id: gid("SubscriptionContract", contract.id),
    id: bare(contract.id),
    billing_policy: { ...policy, min_cycles: null, max_cycles: contract.maxCycles },
    currency_code: contract.currency,
    customer_id: bare(contract.customerId),
    admin_graphql_api_customer_id: gid("Customer", contract.customerId),
    delivery_policy: policy,
    status: contract.status.toLowerCase(),
    admin_graphql_api_origin_order_id: gid("Order", contract.originOrderId),
    origin_order_id: bare(contract.originOrderId),
    revision_id: String(contract.revisionId),
  };
}
