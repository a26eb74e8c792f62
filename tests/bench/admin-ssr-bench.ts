// Server rendering by language: the same admin and portal pages of three
// shops with the same data, one in English, one in German, one in Japanese
// (and the portal in Arabic, right to left), each requested by a logged-in
// merchant, as whole HTML documents, in alternating rounds at 16
// connections. A translated page must render as fast as the English one:
// it reads its namespaces from the same in-memory cache and hands the
// browser the same kind of payload. Target: each language at least 0.9 of
// English's requests per second (the noise of a shared machine).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../app/db/client.server";
import { migrate } from "../../app/db/migrate.server";
import { hashPassword } from "../../app/models/auth/password.server";
import { startChild, stopChild } from "./click-bench";
import type { BenchResult } from "./run";
import { benchAppEnv } from "./bench-demo";

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  "2xx": number;
  non2xx: number;
  errors: number;
  duration: number;
}
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<CannonResult>;

const CONNECTIONS = 16;
const ROUND_S = Number(process.env.BENCH_SSR_ROUND ?? 3);
const ROUNDS = Number(process.env.BENCH_SSR_ROUNDS ?? 3);
const TARGET = 0.9;
const PASSWORD = "bench password 123";

const LANGUAGES = [
  { code: "en", label: "English" },
  { code: "de", label: "German" },
  { code: "jp", label: "Japanese" },
] as const;

async function seedShop(db: ReturnType<typeof createDb>, code: string, passwordHash: string) {
  const domain = `ssr-${code}.myshopify.com`;
  const shop = await db.shop.create({
    data: {
      domain,
      name: `SSR ${code}`,
      url: `https://${domain}`,
      adminEmail: `o@${code}.example`,
      language: code,
      pricingPlan: "pro",
    },
  });
  await db.user.create({
    data: { shopId: shop.id, role: "admin", email: `admin@${code}.example`, name: "Bench", passwordHash },
  });
  const campaign = await db.campaign.create({
    data: { shopId: shop.id, name: "Bench", status: "active", isDefault: true },
  });
  for (let i = 0; i < 20; i++) {
    const affiliate = await db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        email: `a${i}@${code}.example`,
        firstName: `Aff${i}`,
        lastName: "Bench",
        status: "approved",
        referralCode: `B${code.toUpperCase()}${i}`,
      },
    });
    const order = await db.order.create({
      data: {
        shopId: shop.id,
        shopifyGid: `gid://shopify/Order/${code}${i}`,
        name: `#${1000 + i}`,
        currency: "USD",
        subtotal: 10_000 + i,
        total: 11_000 + i,
        status: "pending",
        affiliateId: affiliate.id,
        attributionSource: "link",
        placedAt: new Date(Date.now() - i * 3_600_000),
      },
    });
    await db.commission.create({
      data: { shopId: shop.id, orderId: order.id, affiliateId: affiliate.id, amount: 1000 + i, currency: "USD" },
    });
  }
  return domain.replace(".myshopify.com", "");
}

async function logIn(base: string, code: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: `admin@${code}.example`, password: PASSWORD }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`login for ${code} answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export async function adminSsrBench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ssr-bench-"));
  const databaseUrl = `file:${path.join(dir, "bench.sqlite")}`;
  let app: ChildProcess | undefined;
  try {
    await migrate(databaseUrl);
    const db = createDb(databaseUrl);
    const passwordHash = await hashPassword(PASSWORD);
    const handles: Record<string, string> = {};
    for (const { code } of LANGUAGES) handles[code] = await seedShop(db, code, passwordHash);
    await db.$disconnect();

    const started = await startChild("app", benchAppEnv(databaseUrl, { SEED_DEMO: "0" }));
    app = started.child;
    const base = started.url;
    const cookies: Record<string, string> = {};
    for (const { code } of LANGUAGES) cookies[code] = await logIn(base, code);

    // Each target: a page, and per language how to ask for it.
    const targets = [
      { name: "admin campaigns list", path: () => "/admin/campaigns", languages: LANGUAGES, cookie: true },
      { name: "admin sales list", path: () => "/admin/sales", languages: LANGUAGES, cookie: true },
      {
        name: "portal landing page",
        path: (code: string) => `/portal/${handles[code === "ar" ? "en" : code]}/${code === "ar" ? "?lang=ar" : ""}`,
        languages: [...LANGUAGES, { code: "ar", label: "Arabic (rtl)" }] as const,
        cookie: false,
      },
    ];

    const checks: BenchResult["checks"] = [];
    console.log(`  ${ROUNDS} alternating rounds of ${ROUND_S} s per language and page, ${CONNECTIONS} connections`);
    for (const target of targets) {
      const requests = (code: string) => ({
        url: base + target.path(code),
        connections: CONNECTIONS,
        headers: (target.cookie ? { cookie: cookies[code]! } : {}) as Record<string, string>,
      });
      // A first request of each checks the page is what we think, in the right language.
      for (const { code } of target.languages) {
        const res = await fetch(requests(code).url, { headers: requests(code).headers });
        const html = await res.text();
        const lang = /<html lang="([^"]+)"/.exec(html)?.[1];
        const expected = { en: "en", de: "de", jp: "ja", ar: "ar" }[code];
        if (res.status !== 200 || lang !== expected)
          throw new Error(`${target.name} ${code}: ${res.status}, lang=${lang}`);
        await autocannon({ ...requests(code), duration: 1 }); // warm-up
      }
      const totals = new Map<string, { requests: number; seconds: number; p99: number; bad: number }>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const { code } of target.languages) {
          const r = await autocannon({ ...requests(code), duration: ROUND_S });
          const t = totals.get(code) ?? { requests: 0, seconds: 0, p99: 0, bad: 0 };
          t.requests += r.requests.total;
          t.seconds += r.duration;
          t.p99 = Math.max(t.p99, r.latency.p99);
          t.bad += r.non2xx + r.errors;
          totals.set(code, t);
        }
      }
      const rps = (code: string) => totals.get(code)!.requests / totals.get(code)!.seconds;
      const english = rps("en");
      console.log(`  ${target.name}`);
      for (const { code, label } of target.languages) {
        const t = totals.get(code)!;
        const ratio = rps(code) / english;
        console.log(
          `    ${label.padEnd(14)} ${fmt(rps(code)).padStart(6)} req/s  p99 ${String(t.p99).padStart(4)} ms  ratio to English ${ratio.toFixed(3)}  (${fmt(t.requests)} documents, ${t.bad} not 200)`,
        );
        if (code !== "en") {
          checks.push({
            name: `${target.name}: ${label}/English requests per second ${ratio.toFixed(3)} >= ${TARGET}`,
            pass: ratio >= TARGET && t.bad === 0,
          });
        }
      }
    }
    return { checks };
  } finally {
    if (app) await stopChild(app);
    rmSync(dir, { recursive: true, force: true });
  }
}
