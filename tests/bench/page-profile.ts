// One page of the app, measured alone (not part of `npm run bench`): the demo
// shop of `npm start` in a child process, logged in as the demo admin (admin
// paths) or the demo affiliate (others), then one connection for N seconds.
// Prints requests/s, p50 and the CPU the app process spends per request.
//   npx tsx tests/bench/page-profile.ts /admin/dashboard [seconds]
//   BENCH_CPU_PROFILE=/tmp/p.cpuprofile ...   a CPU profile of the serving
//   PAGE_QUERIES=1 ...                         the SQL of one request, instead
//   PAGE_HTML=/tmp/page.html ...               the document written out, instead
//   PAGE_CONNECTIONS=16 ...                    that many connections instead of one
// Run `npm run build` first: the child serves the production build.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_AFFILIATE_EMAIL, DEMO_PASSWORD, benchAppEnv } from "./bench-demo";
import { startChild, stopChild } from "./click-bench";
import { processCpuMs } from "./process-cpu";

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
}
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<CannonResult>;

async function main() {
  const page = process.argv[2] ?? "/admin/dashboard";
  const seconds = Number(process.argv[3] ?? 5);
  const queries = process.env.PAGE_QUERIES === "1";
  const connections = Number(process.env.PAGE_CONNECTIONS ?? 1);
  const dir = mkdtempSync(path.join(os.tmpdir(), "page-profile-"));
  const app = await startChild(
    "app",
    benchAppEnv(`file:${path.join(dir, "bench.sqlite")}`, {
      DEMO_SHOP: "demo-store.myshopify.com",
      BENCH_SEED_DEMO: "1",
      DEBUG_QUERIES: queries ? "1" : "0",
    }),
  );
  try {
    const cookiesOf = (r: Response) =>
      r.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    const admin = page.startsWith("/admin");
    const login = await fetch(admin ? `${app.url}/login` : `${app.url}/portal/demo-store/login`, {
      method: "POST",
      body: new URLSearchParams({
        email: admin ? "admin@demo-store.example" : DEMO_AFFILIATE_EMAIL,
        password: DEMO_PASSWORD,
      }),
      redirect: "manual",
    });
    const headers = { cookie: cookiesOf(login) };
    const url = app.url + page;
    const first = await fetch(url, { headers, redirect: "manual" });
    const html = await first.text();
    console.log(`${page}: ${first.status}, ${Buffer.byteLength(html).toLocaleString("en-US")} bytes`);
    if (process.env.PAGE_HTML) {
      writeFileSync(process.env.PAGE_HTML, html);
      return;
    }
    if (queries) {
      // The child writes its statements to the inherited stderr; the markers
      // bracket one request's.
      await new Promise((r) => setTimeout(r, 800));
      process.stderr.write("--- one request\n");
      await (await fetch(url, { headers })).text();
      await new Promise((r) => setTimeout(r, 800));
      process.stderr.write("--- end\n");
      return;
    }
    await autocannon({ url, headers, connections: 4, duration: 2 });
    const before = processCpuMs(app.child.pid);
    const r = await autocannon({ url, headers, connections, duration: seconds });
    const after = processCpuMs(app.child.pid);
    const cpu = before === null || after === null ? "?" : ((after - before) / r.requests.total).toFixed(2);
    console.log(
      `${r.requests.average} req/s at ${connections} connection(s), p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, CPU ${cpu} ms/request, non-2xx ${r.non2xx}`,
    );
  } finally {
    await stopChild(app.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
