import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "./free-port";

/**
 * Serves the built app (npm run build) over real HTTP on a free loopback
 * port for this test file. Register after useTestDatabase so DATABASE_URL is
 * set before the app connects.
 */
export function useTestServer(options: { port?: () => number } = {}): { url: (path: string) => string } {
  let server: Server | undefined;
  let base = "";
  beforeAll(async () => {
    const { createApp, listen, loadBuild } = await import("~/server/app-server");
    server = await listen(createApp(loadBuild()), options.port?.() ?? 0, "127.0.0.1");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // fetch keeps connections alive; close them so the server can stop.
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return { url: (path: string) => base + path };
}

/**
 * A free loopback port, taken before the app starts, and SHOPIFY_APP_URL set
 * to it: for tests that follow the links the app hands out (they name the
 * app's public URL). Register before useTestDatabase and useTestServer.
 */
export function useAppUrlPort(): () => number {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    process.env.SHOPIFY_APP_URL = `http://127.0.0.1:${port}`;
    const { resetConfigForTests } = await import("~/config.server");
    resetConfigForTests();
  });
  return () => port;
}
