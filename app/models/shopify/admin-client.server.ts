import { GraphqlQueryError, Session } from "@shopify/shopify-api";
import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import { shopify, shopifyLib } from "../../shopify.server";
import type { AdminOperation } from "./admin-operations";

// The one way the app calls Shopify's Admin GraphQL API: only documents of
// admin-operations.ts, with their types, through the shop's offline session.
// Shopify answers a query that would overdraw the app's cost bucket with a
// THROTTLED error (HTTP 200); the client waits the time the bucket needs to
// refill and tries again, up to a limit the caller sets, then throws
// AdminThrottledError with that time, so a durable job can come back later
// instead of holding a worker.

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export interface AdminResult<T> {
  data: T;
  cost: QueryCost | null;
}

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly errors: unknown[] = [],
  ) {
    super(message);
    this.name = "AdminApiError";
  }
}

export class AdminThrottledError extends AdminApiError {
  constructor(
    readonly retryAfterMs: number,
    readonly cost: QueryCost | null,
  ) {
    super(`Shopify throttled the Admin API; its bucket refills in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = "AdminThrottledError";
  }
}

type Send = (document: string, variables: unknown) => Promise<{ data?: unknown; extensions?: unknown }>;

export interface RunOptions {
  // How long to wait in total for throttled requests before giving up (default 10 s).
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Time until the bucket holds `needed` points again (at least a second, as Shopify advises). */
export function refillMs(cost: QueryCost | null, needed = cost?.requestedQueryCost ?? 0): number {
  const status = cost?.throttleStatus;
  if (!status || status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, needed - status.currentlyAvailable);
  return Math.max(1000, Math.ceil((missing / status.restoreRate) * 1000));
}

function costOf(extensions: unknown): QueryCost | null {
  const cost = (extensions as { cost?: QueryCost } | undefined)?.cost;
  return cost && typeof cost.requestedQueryCost === "number" ? cost : null;
}

export class AdminClient {
  constructor(
    readonly shop: string,
    private readonly send: Send,
  ) {}

  async run<T, V>(operation: AdminOperation<T, V>, variables: V, options: RunOptions = {}): Promise<AdminResult<T>> {
    const maxWait = options.maxWaitMs ?? 10_000;
    const sleep = options.sleep ?? sleepFor;
    let waited = 0;
    for (;;) {
      try {
        const body = await this.send(operation.document, variables);
        return { data: body.data as T, cost: costOf(body.extensions) };
      } catch (error) {
        if (!(error instanceof GraphqlQueryError)) throw error;
        const body = error.body as {
          errors?: { graphQLErrors?: { message: string; extensions?: { code?: string } }[] };
          extensions?: unknown;
        };
        const graphQLErrors = body?.errors?.graphQLErrors ?? [];
        const cost = costOf(body?.extensions);
        if (graphQLErrors.some((e) => e.extensions?.code === "THROTTLED")) {
          const wait = refillMs(cost);
          if (waited + wait > maxWait) throw new AdminThrottledError(wait, cost);
          await sleep(wait);
          waited += wait;
          continue;
        }
        throw new AdminApiError(
          `the Admin API refused ${operation.name}: ${graphQLErrors.map((e) => e.message).join("; ") || error.message}`,
          graphQLErrors,
        );
      }
    }
  }
}

/** A client on the shop's offline session, or null when the app has none (a standalone shop). */
export async function adminClientFor(shopDomain: string): Promise<AdminClient | null> {
  let admin;
  try {
    ({ admin } = await shopify().unauthenticated.admin(shopDomain));
  } catch (error) {
    if (error instanceof SessionNotFoundError) return null;
    throw error;
  }
  return fromRemixAdmin(shopDomain, admin);
}

/** A client on the admin context of an authenticated request (shopify-app-remix). */
export function fromRemixAdmin(
  shopDomain: string,
  admin: { graphql: (query: string, options?: { variables?: any }) => Promise<Response> },
): AdminClient {
  return new AdminClient(shopDomain, async (document, variables) => {
    const response = await admin.graphql(document, { variables: variables as Record<string, unknown> });
    return (await response.json()) as { data?: unknown; extensions?: unknown };
  });
}

/** A client on an access token just granted (the OAuth callback, before a session is stored). */
export function fromAccessToken(shopDomain: string, accessToken: string): AdminClient {
  const lib = shopifyLib();
  const session = new Session({
    id: `offline_${shopDomain}`,
    shop: shopDomain,
    state: "",
    isOnline: false,
    accessToken,
  });
  const client = new lib.clients.Graphql({ session });
  return new AdminClient(shopDomain, (document, variables) =>
    client.request(document, { variables: variables as Record<string, unknown> }),
  );
}
