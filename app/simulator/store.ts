import { createHmac, randomUUID } from "node:crypto";
import { ADMIN_SCHEMA_SOURCE, adminSchema } from "./admin-schema";
import { simulatorAccessToken } from "./access-token";
import type { AppIdentity, ResolverContext, SimEvent } from "./admin-common";
import { hasScope } from "./admin-common";
import { runAdminRequest, type AdminOutcome, type AdminRequestBody } from "./admin-executor";
import { shopGid, subscriptionEvent } from "./admin-mutations";
import { CheckoutError, orderPayload, placeOrder, refundOrder, serializeBody, type PlaceOrderOptions } from "./orders";
import {
  createProduct,
  deleteProduct,
  findProduct,
  productDeletePayload,
  productPayload,
  updateProduct,
  type ProductChange,
} from "./products";
import { CostBucket } from "./query-cost";
import { emptyState, seedShop, StateFile, type OrderRec, type ShopState, type StoreState } from "./store-state";
import { requestedScopes, subscribedTopics } from "./subscriptions";
import {
  billContract,
  changeContractStatus,
  contractPayload,
  createContract,
  findContract,
  type ContractRec,
  type ContractStatus,
} from "./subscription-contracts";

// The simulated Shopify store: one app installed on any number of shops.
// It answers the Admin API (admin-executor.ts) and the OAuth token endpoint,
// places orders and changes its catalogue, and sends the app the signed
// webhooks Shopify would. server.ts puts it on HTTP.

export interface StoreOptions {
  app: { apiKey: string; apiSecret: string; appUrl?: string | null; title?: string };
  // Keep the state in this JSON file (the CLI and the demo); tests keep it in memory.
  stateFile?: string;
  // Scopes granted at install (default: those shopify.app.toml asks for).
  scopes?: string[];
  // The demo shop gets the demo details (name, currency, order numbers).
  demoShop?: string;
  log?: (line: string) => void;
}

export interface RecordedRequest {
  method: string;
  shop: string | null;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  outcome?: AdminOutcome;
}

export interface Delivery {
  topic: string;
  shop: string;
  body: string;
  status: number | null;
  error?: string;
}

export class StoreSimulator {
  state: StoreState;
  readonly app: AppIdentity;
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: Delivery[] = [];
  baseUrl = "http://127.0.0.1";
  private readonly file: StateFile | null;
  private readonly scopes: string[];
  private readonly topics = subscribedTopics();
  private readonly buckets = new Map<string, CostBucket>();
  private readonly throttles = new Map<string, number>();
  private readonly holds = new Map<string, number>();
  private readonly stalls = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: StoreOptions) {
    this.file = options.stateFile ? new StateFile(options.stateFile) : null;
    this.state = this.file?.load() ?? emptyState();
    this.scopes = options.scopes ?? requestedScopes();
    this.log = options.log ?? ((line) => console.log(line));
    this.app = {
      apiKey: options.app.apiKey,
      apiSecret: options.app.apiSecret,
      appUrl: options.app.appUrl ?? null,
      title: options.app.title ?? "Affiliate & Referral",
      handle: "affiliate-referral",
      id: String(
        5_000_000 +
          (Number.parseInt(createHmac("sha256", "app").update(options.app.apiKey).digest("hex").slice(0, 6), 16) %
            1_000_000),
      ),
    };
    // Make sure the schema is there before the first request needs it.
    adminSchema();
  }

  get apiVersion() {
    return ADMIN_SCHEMA_SOURCE.apiVersion;
  }

  /** Where webhooks go: `{appUrl}/webhooks`. */
  setAppUrl(url: string | null) {
    this.app.appUrl = url ? url.replace(/\/$/, "") : null;
  }

  /** A shop of the store, created (seeded) on first use. */
  shop(domain: string): ShopState {
    const existing = this.state.shops[domain];
    if (existing) return existing;
    const shop = seedShop(this.state, domain, { demo: domain === this.options.demoShop, scopes: this.scopes });
    this.save();
    return shop;
  }

  hasShop(domain: string) {
    return Boolean(this.state.shops[domain]);
  }

  /** The app's offline access token on a shop. */
  accessToken(domain: string) {
    return simulatorAccessToken(this.app.apiSecret, domain);
  }

  /** The shop a token opens, or null (unknown, revoked, or for another shop). */
  shopForToken(token: string | undefined, domain: string | null): ShopState | null {
    if (!token) return null;
    const candidates = domain ? [domain] : Object.keys(this.state.shops);
    for (const d of candidates) {
      if (this.accessToken(d) !== token) continue;
      const shop = this.shop(d);
      return shop.installed ? shop : null;
    }
    return null;
  }

  /** Grants the app its token on a shop (OAuth code grant or token exchange). */
  install(domain: string): { access_token: string; scope: string } {
    const shop = this.shop(domain);
    if (!shop.installed) {
      shop.installed = true;
      this.save();
    }
    return { access_token: this.accessToken(domain), scope: shop.scopes.join(",") };
  }

  /** The merchant uninstalls the app: the token stops working and app/uninstalled is sent. */
  async uninstall(domain: string) {
    const shop = this.shop(domain);
    shop.installed = false;
    for (const s of shop.subscriptions) if (s.status === "ACTIVE" || s.status === "PENDING") s.status = "CANCELLED";
    shop.webPixel = null;
    this.save();
    const body = serializeBody({
      id: `@@${70_000_000}`,
      name: shop.details.name,
      email: shop.details.email,
      domain: new URL(shop.details.primaryDomainUrl).host,
      myshopify_domain: shop.domain,
      currency: shop.details.currencyCode,
      iana_timezone: shop.details.ianaTimezone,
    });
    return this.deliver(domain, "app/uninstalled", body);
  }

  /** The merchant grants or revokes scopes: they apply at once and app/scopes_update is sent. */
  async changeScopes(domain: string, scopes: string[]) {
    const shop = this.shop(domain);
    const previous = shop.scopes;
    shop.scopes = [...scopes];
    this.save();
    const body = serializeBody({
      id: 1,
      shop_id: shopGid(shop),
      previous,
      current: shop.scopes,
      updated_at: new Date().toISOString(),
    });
    return this.deliver(domain, "app/scopes_update", body);
  }

  bucket(domain: string): CostBucket {
    let bucket = this.buckets.get(domain);
    if (!bucket) this.buckets.set(domain, (bucket = new CostBucket()));
    return bucket;
  }

  /** The next `times` Admin API requests of the shop answer THROTTLED (tests of the app's backoff). */
  throttleNext(domain: string, times = 1) {
    this.throttles.set(domain, (this.throttles.get(domain) ?? 0) + times);
  }

  /**
   * The next `times` requests of the shop running `operation` are carried
   * out, and their answer is never sent (tests of a worker killed while it
   * waits: Shopify made the change, the app never learns it).
   */
  holdAnswerOf(domain: string, operation: string, times = 1) {
    const key = `${domain} ${operation}`;
    this.holds.set(key, (this.holds.get(key) ?? 0) + times);
  }

  /**
   * The next `times` requests of the shop whose document names `operationName`
   * (e.g. "FlowTriggerReceive") are neither carried out nor answered: the
   * client waits until it gives up or dies, and Shopify changed nothing.
   */
  stallNextOf(domain: string, operationName: string, times = 1) {
    const key = `${domain} ${operationName}`;
    this.stalls.set(key, (this.stalls.get(key) ?? 0) + times);
  }

  /** Whether this request is one to stall (and counts it). */
  takeStall(domain: string, document: string): boolean {
    const name = /\b(?:query|mutation)\s+(\w+)/.exec(document)?.[1];
    const key = `${domain} ${name ?? ""}`;
    const left = this.stalls.get(key) ?? 0;
    if (!name || left <= 0) return false;
    this.stalls.set(key, left - 1);
    return true;
  }

  /** Whether this answer is one to hold (and counts it). */
  takeHold(domain: string, operation: string | undefined): boolean {
    const key = `${domain} ${operation ?? ""}`;
    const left = this.holds.get(key) ?? 0;
    if (left <= 0) return false;
    this.holds.set(key, left - 1);
    return true;
  }

  private context(shop: ShopState): ResolverContext {
    return {
      state: this.state,
      shop,
      app: this.app,
      baseUrl: this.baseUrl,
      now: new Date(),
      events: [],
      changed: false,
      searchWarnings: [],
      unmodelled: [],
    };
  }

  /** One Admin GraphQL request from the app (already authenticated to `shop`). */
  graphql(shop: ShopState, body: AdminRequestBody): AdminOutcome {
    const ctx = this.context(shop);
    const forced = this.throttles.get(shop.domain) ?? 0;
    if (forced > 0) this.throttles.set(shop.domain, forced - 1);
    const started = Date.now();
    const result = runAdminRequest(body, {
      schema: adminSchema(),
      ctx,
      bucket: this.bucket(shop.domain),
      forceThrottle: forced > 0,
    });
    if (ctx.changed) this.save();
    for (const event of ctx.events) this.track(this.deliver(shop.domain, event.topic, event.body));
    const cost = result.cost
      ? ` cost ${result.cost.actual ?? "-"}/${result.cost.requested}, ${this.bucket(shop.domain).status().currentlyAvailable} left`
      : "";
    const verdict = result.throttled
      ? "validated, THROTTLED"
      : result.validated
        ? result.errors.length
          ? `validated, ${result.errors.length} error(s): ${result.errors[0]!.message}`
          : "validated"
        : `REFUSED: ${result.errors[0]?.message ?? JSON.stringify(result.body.errors)}`;
    const unmodelled = ctx.unmodelled.length ? ` (not modelled: ${[...new Set(ctx.unmodelled)].join(", ")})` : "";
    this.log(`[store] ${shop.domain} ${result.operation}: ${verdict}${cost}${unmodelled} (${Date.now() - started} ms)`);
    return result;
  }

  private save() {
    this.file?.save(this.state);
  }

  private track(p: Promise<unknown>) {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Waits for the webhooks under way. */
  async flush() {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Sends a signed webhook to the app, if it subscribes to the topic. */
  async deliver(domain: string, topic: string, body: string): Promise<Delivery> {
    const delivery: Delivery = { topic, shop: domain, body, status: null };
    if (!this.topics.has(topic)) {
      delivery.error = "the app does not subscribe to this topic";
      this.log(`[store] ${domain} ${topic}: not sent (not in shopify.app.toml)`);
      return delivery;
    }
    if (!this.app.appUrl) {
      delivery.error = "no app URL to send webhooks to";
      this.log(`[store] ${domain} ${topic}: not sent (no app URL)`);
      return delivery;
    }
    this.deliveries.push(delivery);
    try {
      const response = await fetch(`${this.app.appUrl}/webhooks`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-shopify-topic": topic,
          "x-shopify-shop-domain": domain,
          "x-shopify-api-version": this.apiVersion,
          "x-shopify-webhook-id": randomUUID(),
          "x-shopify-event-id": randomUUID(),
          "x-shopify-triggered-at": new Date().toISOString(),
          "x-shopify-hmac-sha256": createHmac("sha256", this.app.apiSecret).update(body).digest("base64"),
        },
      });
      delivery.status = response.status;
      await response.arrayBuffer();
      this.log(`[store] ${domain} webhook ${topic} -> ${response.status}`);
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
      this.log(`[store] ${domain} webhook ${topic} failed: ${delivery.error}`);
    }
    return delivery;
  }

  // ---- the merchant and the buyers --------------------------------------------

  /** A buyer checks out; orders/create and orders/paid follow. */
  async placeOrder(domain: string, options: PlaceOrderOptions = {}) {
    const shop = this.shop(domain);
    const order = placeOrder(this.state, shop, options);
    this.save();
    const created = serializeBody(orderPayload(shop, order, { financialStatus: "paid" }));
    const deliveries = [await this.deliver(domain, "orders/create", created)];
    deliveries.push(await this.deliver(domain, "orders/paid", created));
    return { order, payload: created, deliveries };
  }

  /**
   * A subscription app makes a contract from an order (the buyer checked out
   * with a selling plan); subscription_contracts/create follows. Shopify sends
   * it only to an app granted read_own_subscription_contracts, and only for
   * its own contracts (`byAnotherApp`: another subscription app made it).
   */
  async createSubscriptionContract(
    domain: string,
    wantedOrder = "last",
    options: Parameters<typeof createContract>[3] = {},
  ) {
    const shop = this.shop(domain);
    const contract = createContract(this.state, shop, this.findOrder(domain, wantedOrder), options);
    this.save();
    return { contract, deliveries: [await this.deliverContract(domain, "subscription_contracts/create", contract)] };
  }

  /** The contract's status changes (paused, cancelled, ...); subscription_contracts/update follows. */
  async changeSubscriptionContract(domain: string, wanted: string, status: ContractStatus) {
    const contract = findContract(this.shop(domain), wanted);
    changeContractStatus(contract, status);
    this.save();
    return { contract, deliveries: [await this.deliverContract(domain, "subscription_contracts/update", contract)] };
  }

  /** A billing attempt succeeds: the renewal order, with orders/create and orders/paid. */
  async renewSubscription(domain: string, wanted = "last", now?: Date) {
    const shop = this.shop(domain);
    const order = billContract(this.state, shop, findContract(shop, wanted), now);
    this.save();
    const created = serializeBody(orderPayload(shop, order, { financialStatus: "paid" }));
    const deliveries = [await this.deliver(domain, "orders/create", created)];
    deliveries.push(await this.deliver(domain, "orders/paid", created));
    return { order, payload: created, deliveries };
  }

  private async deliverContract(domain: string, topic: string, contract: ContractRec): Promise<Delivery> {
    // read_own_subscription_contracts: a contract's webhooks go to the app that made it.
    if (contract.byAnotherApp)
      return { topic, shop: domain, body: "", status: null, error: "the contract belongs to another app" };
    if (!hasScope(this.shop(domain).scopes, "read_own_subscription_contracts"))
      return { topic, shop: domain, body: "", status: null, error: "the app lacks read_own_subscription_contracts" };
    return this.deliver(domain, topic, serializeBody(contractPayload(contract)));
  }

  findOrder(domain: string, wanted = "last"): OrderRec {
    const orders = this.shop(domain).orders;
    const order =
      wanted === "last"
        ? orders.at(-1)
        : orders.find(
            (o) =>
              o.id === wanted ||
              o.name === wanted ||
              o.name === `#${wanted}` ||
              `gid://shopify/Order/${o.id}` === wanted,
          );
    if (!order)
      throw new CheckoutError(`No order ${wanted} in the store: place one with \`npm run simulate -- order\` first.`);
    return order;
  }

  async refund(domain: string, wanted = "last", lines = 1) {
    const shop = this.shop(domain);
    const order = this.findOrder(domain, wanted);
    const refund = serializeBody(refundOrder(this.state, shop, order, lines));
    this.save();
    return { order, payload: refund, deliveries: [await this.deliver(domain, "refunds/create", refund)] };
  }

  async cancel(domain: string, wanted = "last") {
    const shop = this.shop(domain);
    const order = this.findOrder(domain, wanted);
    if (order.cancelledAt) throw new CheckoutError(`Order ${order.name} is cancelled already.`);
    order.cancelledAt = new Date().toISOString();
    this.save();
    const body = serializeBody(orderPayload(shop, order));
    return { order, payload: body, deliveries: [await this.deliver(domain, "orders/cancelled", body)] };
  }

  async createProduct(domain: string, change: ProductChange) {
    const shop = this.shop(domain);
    const product = createProduct(this.state, shop, change);
    this.save();
    return { product, deliveries: [await this.deliver(domain, "products/create", productPayload(product))] };
  }

  async updateProduct(domain: string, wanted: string, change: ProductChange) {
    const shop = this.shop(domain);
    const product = updateProduct(shop, findProduct(shop, wanted), change);
    this.save();
    return { product, deliveries: [await this.deliver(domain, "products/update", productPayload(product))] };
  }

  async deleteProduct(domain: string, wanted: string) {
    const shop = this.shop(domain);
    const product = findProduct(shop, wanted);
    deleteProduct(shop, product);
    this.save();
    return { product, deliveries: [await this.deliver(domain, "products/delete", productDeletePayload(product))] };
  }

  /** The merchant approves (or declines) a subscription on the confirmation page. */
  decideSubscription(domain: string, id: string, approve: boolean) {
    const shop = this.shop(domain);
    const s = shop.subscriptions.find((x) => x.id === id);
    if (!s) throw new CheckoutError(`No subscription ${id} on ${domain}.`);
    if (s.status !== "PENDING") throw new CheckoutError(`This charge is ${s.status.toLowerCase()} already.`);
    const now = new Date();
    if (approve) {
      // Standard replacement: the new plan replaces the one that was active.
      for (const other of shop.subscriptions) if (other !== s && other.status === "ACTIVE") other.status = "CANCELLED";
      s.status = "ACTIVE";
      s.currentPeriodEnd = new Date(now.getTime() + (30 + s.trialDays) * 86_400_000).toISOString();
    } else {
      s.status = "DECLINED";
    }
    this.save();
    const event: SimEvent = subscriptionEvent({ shop, now }, s);
    this.track(this.deliver(domain, event.topic, event.body));
    return s;
  }

  /**
   * What happens to a charge outside the app: the merchant cancels it in the
   * Shopify admin (or uninstalls), or Shopify freezes it over an unpaid bill
   * and thaws it when paid. Sends app_subscriptions/update like Shopify.
   */
  async changeSubscription(domain: string, id: string, status: "CANCELLED" | "FROZEN" | "ACTIVE" | "EXPIRED") {
    const shop = this.shop(domain);
    const s = shop.subscriptions.find((x) => x.id === id);
    if (!s) throw new CheckoutError(`No subscription ${id} on ${domain}.`);
    const allowed: Record<string, string[]> = {
      CANCELLED: ["ACTIVE", "FROZEN", "PENDING"],
      FROZEN: ["ACTIVE"],
      ACTIVE: ["FROZEN"],
      EXPIRED: ["PENDING"],
    };
    if (!allowed[status]!.includes(s.status))
      throw new CheckoutError(`A ${s.status.toLowerCase()} charge cannot become ${status.toLowerCase()}.`);
    s.status = status;
    this.save();
    const event: SimEvent = subscriptionEvent({ shop, now: new Date() }, s);
    return this.deliver(domain, event.topic, event.body);
  }

  /** Forgets every shop (tests). */
  reset() {
    this.state = emptyState();
    this.requests.length = 0;
    this.deliveries.length = 0;
    this.buckets.clear();
    this.throttles.clear();
    this.holds.clear();
    this.stalls.clear();
    this.save();
  }
}

export { CheckoutError };
