import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll } from "vitest";
import { serveStore } from "~/simulator/server";
import { StoreSimulator, type RecordedRequest } from "~/simulator/store";

// Tests talk to the same store simulator the demo runs (app/simulator): the
// Admin API checked against Shopify's schema, the OAuth token endpoint, and
// signed webhooks back to the app. The app reaches it through
// SHOPIFY_ADMIN_BASE_URL; its state lives in memory, one store per test file.

export interface TestStore {
  url: string;
  store: StoreSimulator;
  /** The app's offline token on a shop (what the token endpoint grants). */
  accessToken(shop: string): string;
  /** Admin GraphQL requests the app sent (every request is recorded, in order). */
  graphqlRequests(): RecordedRequest[];
  /** Where the store sends webhooks (the app under test). */
  setAppUrl(url: string): void;
  reset(): void;
}

/** Starts a store on a loopback port; `scopes` are granted at install (default: shopify.app.toml's). */
export async function startStoreSimulator(options: { scopes?: string[]; log?: boolean } = {}) {
  const store = new StoreSimulator({
    app: { apiKey: API_KEY, apiSecret: API_SECRET_KEY },
    scopes: options.scopes,
    log: options.log ? undefined : () => {},
  });
  const running = await serveStore(store);
  const handle: TestStore & { close(): Promise<void> } = {
    url: running.url,
    store,
    accessToken: (shop) => store.accessToken(shop),
    graphqlRequests: () => store.requests.filter((r) => r.path.endsWith("/graphql.json")),
    setAppUrl: (url) => store.setAppUrl(url),
    reset: () => store.reset(),
    close: async () => {
      await store.flush();
      await running.close();
    },
  };
  return handle;
}

/**
 * A store for this test file, registered before the database and server
 * hooks: SHOPIFY_ADMIN_BASE_URL must be set before the app first reads its
 * configuration.
 */
export function useStoreSimulator(options: { scopes?: string[] } = {}): TestStore {
  let running: Awaited<ReturnType<typeof startStoreSimulator>> | undefined;
  const proxy = {} as TestStore;
  beforeAll(async () => {
    running = await startStoreSimulator(options);
    process.env.SHOPIFY_ADMIN_BASE_URL = running.url;
    Object.assign(proxy, running);
  });
  afterAll(async () => {
    await running?.close();
  });
  return proxy;
}

/**
 * A shop the app has installed on the simulator: its offline session holds the
 * simulator's token, so the app's Admin calls for it reach the store.
 */
export async function connectShopToSimulator(sim: TestStore, domain: string, scope = "write_discounts") {
  // Imported here, not at the top: this file is loaded before the test env points the app at its database.
  const { getDb } = await import("~/db.server");
  await getDb().session.create({
    data: { id: `offline_${domain}`, shop: domain, state: "", accessToken: sim.accessToken(domain), scope },
  });
}
