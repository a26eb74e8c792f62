// Child process of the benchmarks: serves one target on 127.0.0.1 (a free
// port) and prints {"port": n} on its first stdout line, so the load
// generator never shares this event loop.
//   tsx tests/bench/bench-servers.ts app   the real app (createApp + listen; env from the parent)
//   tsx tests/bench/bench-servers.ts bare  a bare Node server that only answers 302
import http from "node:http";
import type { AddressInfo } from "node:net";

async function main() {
  const mode = process.argv[2];
  let server: http.Server;
  if (mode === "app") {
    const { createApp, listen, loadBuild } = await import("../../app/server/app-server");
    server = await listen(createApp(loadBuild()), 0, "127.0.0.1");
  } else if (mode === "bare") {
    server = http.createServer((_req, res) => {
      res.writeHead(302, { Location: "https://bench-store.example/?ref=BENCH&_aff_click=AAAAAAAAAAAAAAAAAAAAAA" });
      res.end();
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  } else {
    throw new Error(`unknown mode ${mode}: use app or bare`);
  }
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
