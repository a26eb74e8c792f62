import path from "node:path";
import { serveStore, type RunningStore } from "./server";
import { StoreSimulator } from "./store";

// `npm start` in the demo runs a store simulator next to the app, unless
// SHOPIFY_ADMIN_BASE_URL points the app's Shopify calls elsewhere (or
// STORE_SIMULATOR=0). It keeps its state in data/store-simulator.json and
// sends its webhooks to the app; the demo seed connects the demo shop to it.

export function storeSimulatorPort() {
  return Number(process.env.STORE_SIMULATOR_PORT ?? Number(process.env.PORT ?? 3000) + 1);
}

export function storeStateFile(dataDir: string) {
  return path.join(dataDir, "store-simulator.json");
}

/** Starts the demo's store (and points the app at it); null when the environment says not to. */
export async function startDemoStore(dataDir: string): Promise<RunningStore | null> {
  if (process.env.SHOPIFY_ADMIN_BASE_URL || process.env.SEED_DEMO === "0" || process.env.STORE_SIMULATOR === "0")
    return null;
  const port = storeSimulatorPort();
  const store = new StoreSimulator({
    app: {
      apiKey: process.env.SHOPIFY_API_KEY ?? "",
      apiSecret: process.env.SHOPIFY_API_SECRET ?? "",
      appUrl: `http://127.0.0.1:${process.env.PORT ?? 3000}`,
    },
    stateFile: storeStateFile(dataDir),
    demoShop: process.env.DEMO_SHOP ?? "demo-store.myshopify.com",
  });
  let running: RunningStore;
  try {
    running = await serveStore(store, { port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new Error(
        `The store simulator's port ${port} is in use: set STORE_SIMULATOR_PORT to a free port, or STORE_SIMULATOR=0 to run without it.`,
      );
    throw error;
  }
  process.env.SHOPIFY_ADMIN_BASE_URL = running.url;
  process.env.STORE_SIMULATOR_URL = running.url;
  console.log(
    `store simulator: ${running.url} (Admin API ${store.apiVersion}, every request checked against Shopify's schema; log lines start with [store])`,
  );
  return running;
}
