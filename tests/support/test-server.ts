import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/**
 * Serves the built app (npm run build) over real HTTP on a free loopback
 * port for this test file. Register after useTestDatabase so DATABASE_URL is
 * set before the app connects.
 */
export function useTestServer(): { url: (path: string) => string } {
  let server: Server | undefined;
  let base = "";
  beforeAll(async () => {
    const { createApp, listen, loadBuild } = await import("~/server/app-server");
    server = await listen(createApp(loadBuild()), 0, "127.0.0.1");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // fetch keeps connections alive; close them so the server can stop.
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return { url: (path: string) => base + path };
}
