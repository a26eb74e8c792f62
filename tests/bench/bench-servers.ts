// Child process of the benchmarks: serves one target on 127.0.0.1 (a free
// port) and prints {"port": n} on its first stdout line, so the load
// generator never shares this event loop.
//   tsx tests/bench/bench-servers.ts app   the real app (createApp + listen; env from the parent)
//   tsx tests/bench/bench-servers.ts bare  a bare Node server that only answers 302
//   tsx tests/bench/bench-servers.ts polaris  bare Polaris screens (bare-polaris.tsx):
//                                   GET /dashboard and GET /sales, rendered per request
//   tsx tests/bench/bench-servers.ts twin  the template-style twin (twin-app.tsx): a minimal Remix
//                                   app serving /admin/dashboard and /admin/sales from the
//                                   database the app seeded (start it after the app)
import { writeFileSync } from "node:fs";
import http from "node:http";
import { Session } from "node:inspector";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { readAssetManifest } from "../../app/cli/asset-manifest";
import { DEMO_AFFILIATE_EMAIL, DEMO_PASSWORD } from "./bench-demo";

/** The demo shop of `npm start` (pages bench), and one affiliate who can log in to the portal. */
async function seedDemo() {
  const { migrate } = await import("../../app/db/migrate.server");
  const { getConfig } = await import("../../app/config.server");
  const { getDb } = await import("../../app/db.server");
  const { seedDemoShop } = await import("../../app/models/demo/seed-demo.server");
  const { hashPassword } = await import("../../app/models/auth/password.server");
  const { LAG_MS, rebuildRollup } = await import("../../app/models/dashboard/rollup.server");
  const config = getConfig();
  await migrate(config.DATABASE_URL);
  await seedDemoShop({
    shopDomain: config.DEMO_SHOP,
    adminEmail: config.DEMO_ADMIN_EMAIL,
    adminPassword: DEMO_PASSWORD,
    staffEmail: config.DEMO_STAFF_EMAIL,
    staffPassword: DEMO_PASSWORD,
    apiKey: "bench_demo_api_key_0123456789",
  });
  const db = getDb();
  const shop = await db.shop.findUniqueOrThrow({ where: { domain: config.DEMO_SHOP } });
  // The rollup as `npm start`'s job worker keeps it: built after the first
  // dashboard view and refreshed once the seed is older than the rollup's lag
  // (so the seeded orders are in the buckets, not recounted live as changed
  // ones). The refresh is dated one lag ahead instead of waiting a minute;
  // nothing is written to the shop meanwhile.
  if (process.env.BENCH_ROLLUP !== "0") await rebuildRollup(shop.id, new Date(Date.now() + LAG_MS + 1000));
  // The demo affiliate with the most sales: their portal pages have content.
  const [top] = await db.order.groupBy({
    by: ["affiliateId"],
    where: { shopId: shop.id, affiliateId: { not: null } },
    _count: { _all: true },
    orderBy: { _count: { affiliateId: "desc" } },
    take: 1,
  });
  await db.affiliate.update({
    where: { id: top!.affiliateId! },
    data: { email: DEMO_AFFILIATE_EMAIL, status: "approved", passwordHash: await hashPassword(DEMO_PASSWORD) },
  });
}

/** Starts the V8 CPU profiler; the function returned stops it and gives the profile. */
async function startProfile(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<{ profile?: object }>((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error ? reject(error) : resolve(result as { profile?: object }),
      ),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  return async () => (await post("Profiler.stop")).profile!;
}

async function main() {
  const mode = process.argv[2];
  let server: http.Server;
  if (mode === "app") {
    if (process.env.BENCH_SEED_DEMO === "1") await seedDemo();
    const { createApp, listen, loadBuild } = await import("../../app/server/app-server");
    server = await listen(createApp(loadBuild()), 0, "127.0.0.1");
  } else if (mode === "bare") {
    server = http.createServer((_req, res) => {
      res.writeHead(302, { Location: "https://bench-store.example/?ref=BENCH&_aff_click=AAAAAAAAAAAAAAAAAAAAAA" });
      res.end();
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  } else if (mode === "polaris") {
    const { bareSales, renderBareDashboard, renderBareSalesList } = await import("./bare-polaris");
    const sales = bareSales(25);
    server = http.createServer((req, res) => {
      const html =
        req.url === "/dashboard" ? renderBareDashboard() : req.url === "/sales" ? renderBareSalesList(sales) : null;
      if (html === null) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(html) });
      res.end(html);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  } else if (mode === "twin") {
    const { twinBuild, twinServer } = await import("./twin-app");
    // The app's client manifest (so the twin's pages name the same scripts)
    // and future flags, read from its build without loading its server code.
    const root = path.join(__dirname, "../..");
    // (The whole manifest, route flags and version included; its type names only the modules.)
    const assets = readAssetManifest(path.join(root, "public/build")) as unknown as Parameters<typeof twinBuild>[0];
    const future = {
      v3_fetcherPersist: false,
      v3_relativeSplatPath: false,
      v3_throwAbortReason: false,
      v3_routeConfig: false,
      v3_singleFetch: false,
      v3_lazyRouteDiscovery: false,
      unstable_optimizeDeps: false,
      ...(require(path.join(root, "remix.config.js")) as { future: object }).future,
    };
    server = twinServer(twinBuild(assets, future)).listen(0, "127.0.0.1");
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.once("listening", resolve));
  } else {
    throw new Error(`unknown mode ${mode}: use app, bare, polaris or twin`);
  }
  // BENCH_CPU_PROFILE=file.cpuprofile: a CPU profile of the serving only
  // (not start-up or seeding), written when the server is stopped.
  const profile = process.env.BENCH_CPU_PROFILE ? await startProfile() : null;
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  const stop = async () => {
    if (profile) writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify(await profile()));
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
