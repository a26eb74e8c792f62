// One page of the app, measured alone (not part of `npm run bench`): the demo
// shop of `npm start` in a child process, logged in as the demo admin (admin
// paths) or the demo affiliate (others), then one connection for N seconds.
// Prints requests/s, p50 and the CPU the app process spends per request.
//   npx tsx tests/bench/page-profile.ts /admin/dashboard [seconds]
//   BENCH_CPU_PROFILE=/tmp/p.cpuprofile ...   a CPU profile of the serving
//   PAGE_QUERIES=1 ...                         the SQL of one request, instead
//   PAGE_HTML=/tmp/page.html ...               the document written out, instead
//   PAGE_CONNECTIONS=16 ...                    that many connections instead of one
//   PAGE_TWIN=1 ...                            the page of the template-style twin
//                                              (twin-app.tsx: /admin/dashboard, /admin/sales) instead
//   PAGE_TWIN=both ...                         the app's page and the twin's in alternating
//                                              rounds (the seconds split in 4 rounds each), with
//                                              BENCH_CPU_PROFILE=/tmp/p a profile of each:
//                                              /tmp/p.app.cpuprofile and /tmp/p.twin.cpuprofile
// Profiles are read with profile-summary.ts. Run `npm run build` first: the
// child serves the production build.
import type { ChildProcess } from "node:child_process";
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
  duration: number;
}
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<CannonResult>;

const ROUNDS = 4;

async function main() {
  const page = process.argv[2] ?? "/admin/dashboard";
  const seconds = Number(process.argv[3] ?? 5);
  const queries = process.env.PAGE_QUERIES === "1";
  const connections = Number(process.env.PAGE_CONNECTIONS ?? 1);
  const twinMode = process.env.PAGE_TWIN === "1" ? "only" : process.env.PAGE_TWIN === "both" ? "both" : "none";
  const dir = mkdtempSync(path.join(os.tmpdir(), "page-profile-"));
  const env = benchAppEnv(`file:${path.join(dir, "bench.sqlite")}`, {
    DEMO_SHOP: "demo-store.myshopify.com",
    BENCH_SEED_DEMO: "1",
    DEBUG_QUERIES: queries ? "1" : "0",
  });
  // The app seeds the database in every mode; the twin, started after it,
  // reads it. Each serving process writes its own profile.
  const { BENCH_CPU_PROFILE: profile, ...noProfile } = env;
  const profileOf = (who: "app" | "twin") =>
    !profile ? noProfile : twinMode === "both" ? { ...env, BENCH_CPU_PROFILE: `${profile}.${who}.cpuprofile` } : env;
  const app = await startChild("app", twinMode === "only" ? noProfile : profileOf("app"));
  const twin = twinMode === "none" ? null : await startChild("twin", profileOf("twin"));
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
    const servers: { name: string; server: { child: ChildProcess; url: string }; headers: Record<string, string> }[] = [
      ...(twinMode === "only" ? [] : [{ name: "app", server: app, headers: { cookie: cookiesOf(login) } }]),
      ...(twin ? [{ name: "twin", server: twin, headers: {} }] : []),
    ];
    const served = new Map<string, { docs: number; cpu: number | null; requests: number; seconds: number }>();
    for (const { name, server, headers } of servers) {
      const url = server.url + page;
      const first = await fetch(url, { headers, redirect: "manual" });
      const html = await first.text();
      console.log(`${name} ${page}: ${first.status}, ${Buffer.byteLength(html).toLocaleString("en-US")} bytes`);
      if (process.env.PAGE_HTML) {
        writeFileSync(twinMode === "both" ? `${process.env.PAGE_HTML}.${name}.html` : process.env.PAGE_HTML, html);
        continue;
      }
      if (queries) {
        // The child writes its statements to the inherited stderr; the markers
        // bracket one request's.
        await new Promise((r) => setTimeout(r, 800));
        process.stderr.write("--- one request\n");
        await (await fetch(url, { headers })).text();
        await new Promise((r) => setTimeout(r, 800));
        process.stderr.write("--- end\n");
        continue;
      }
      const warm = await autocannon({ url, headers, connections: 4, duration: 2 });
      served.set(name, { docs: 1 + warm.requests.total, cpu: 0, requests: 0, seconds: 0 });
    }
    if (process.env.PAGE_HTML || queries) return;
    // Both: alternating rounds, so a drift in the machine's load hits both alike.
    const rounds = twinMode === "both" ? ROUNDS : 1;
    const results = new Map<string, CannonResult[]>();
    for (let round = 0; round < rounds; round++) {
      for (const { name, server, headers } of servers) {
        const before = processCpuMs(server.child.pid);
        const r = await autocannon({ url: server.url + page, headers, connections, duration: seconds / rounds });
        const after = processCpuMs(server.child.pid);
        const s = served.get(name)!;
        s.cpu = before === null || after === null || s.cpu === null ? null : s.cpu + after - before;
        s.requests += r.requests.total;
        s.seconds += r.duration;
        s.docs += r.requests.total;
        results.set(name, [...(results.get(name) ?? []), r]);
      }
    }
    for (const { name } of servers) {
      const s = served.get(name)!;
      const rs = results.get(name)!;
      const worst = (f: (r: CannonResult) => number) => Math.max(...rs.map(f));
      const cpu = s.cpu === null ? "?" : (s.cpu / s.requests).toFixed(2);
      console.log(
        `${name}: ${(s.requests / s.seconds).toFixed(1)} req/s at ${connections} connection(s), p50 ${worst((r) => r.latency.p50)} ms, p90 ${worst((r) => r.latency.p90)} ms, p99 ${worst((r) => r.latency.p99)} ms, max ${worst((r) => r.latency.max)} ms, CPU ${cpu} ms/request, non-2xx ${rs.reduce((n, r) => n + r.non2xx, 0)}`,
      );
      // profile-summary.ts divides the profile by this.
      if (profile) console.log(`${name}: documents in the profile: ${s.docs}`);
    }
    const [a, b] = servers.map(({ name }) => served.get(name)!);
    if (a && b && a.cpu !== null && b.cpu !== null)
      console.log(`CPU per document, twin's over the app's: ${(b.cpu / b.requests / (a.cpu / a.requests)).toFixed(2)}`);
  } finally {
    if (twin) await stopChild(twin.child);
    await stopChild(app.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
