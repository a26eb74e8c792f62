// Monthly bonuses and auto-tier for 10,000 affiliates over 1,000,000 orders
// (docs/decisions/027): the time evaluateShopBonuses and evaluateShopTiers
// take on SQLite, each in one transaction as the jobs run them, against a
// baseline measured in the same run on the same file: one grouped scan of
// every order (what any per-affiliate total costs at least). Target: both
// together under 10 s. Three runs each; min / median / max are printed.
//
//   npm run build --silent && BENCH_ONLY=bonuses npx tsx tests/bench/run.ts
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb } from "../../app/db/client.server";
import { migrate } from "../../app/db/migrate.server";
import { randomInt, seededRandom } from "../../app/lib/prng";
import { evaluateShopBonuses } from "../../app/models/bonuses/evaluate-bonuses.server";
import { evaluateShopTiers } from "../../app/models/tiers/evaluate-tiers.server";
import type { BenchResult } from "./run";

const AFFILIATES = Number(process.env.BENCH_BONUS_AFFILIATES ?? 10_000);
const ORDERS = Number(process.env.BENCH_BONUS_ORDERS ?? 1_000_000);
const RUNS = 3;
const TARGET_S = 10;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 23) + "+00:00";

function seed(file: string, now: number) {
  const db = new Database(file);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -500000");
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('Order', 'Commission')`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  const random = seededRandom(27);
  const created = iso(now - 400 * DAY);
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, adminEmail, currency, moneyFormat, timezone, settings, installedAt, createdAt, updatedAt)
     VALUES ('s', 'bench.myshopify.com', 'Bench', 'https://bench.myshopify.com', 'a@b.c', 'USD', '\${{amount}}', 'America/New_York', '{"autotier":{"enabled":true,"allowDemotion":true}}', ?, ?, ?)`,
  ).run(created, created, created);
  const campaign = db.prepare(
    `INSERT INTO "Campaign" (id, shopId, name, status, createdAt, updatedAt) VALUES (?, 's', ?, 'active', ?, ?)`,
  );
  for (const name of ["bronze", "silver", "gold", "platinum"]) campaign.run(name, name, created, created);
  const affiliate = db.prepare(
    `INSERT INTO "Affiliate" (id, shopId, campaignId, parentId, email, firstName, lastName, status, referralCode, createdAt, updatedAt)
     VALUES (?, 's', 'bronze', ?, ?, 'A', 'B', 'approved', ?, ?, ?)`,
  );
  const parents: (string | null)[] = [];
  db.transaction(() => {
    for (let i = 0; i < AFFILIATES; i++) {
      const parent = i > 100 && random() < 0.3 ? `a${randomInt(random, 0, 100)}` : null;
      parents.push(parent);
      affiliate.run(`a${i}`, parent, `a${i}@x.example`, `A${i}`, iso(now - randomInt(random, 1, 400) * DAY), created);
    }
  })();
  const order = db.prepare(
    `INSERT INTO "Order" (id, shopId, shopifyGid, name, currency, subtotal, total, status, affiliateId, refundedAmount, placedAt, createdAt, updatedAt)
     VALUES (?, 's', ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const commission = db.prepare(
    `INSERT INTO "Commission" (id, shopId, orderId, affiliateId, level, kind, sourceRef, explanation, amount, currency, status, createdAt, updatedAt)
     VALUES (?, 's', ?, ?, ?, 'sale', '', '', ?, 'USD', 'approved', ?, ?)`,
  );
  const BATCH = 100_000;
  for (let done = 0; done < ORDERS; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, ORDERS); i++) {
        // Skewed: a few affiliates sell most.
        const a = Math.floor(AFFILIATES * random() ** 2);
        const placed = iso(now - random() * 365 * DAY);
        const subtotal = randomInt(random, 1500, 25_000);
        const status = random() < 0.93 ? "approved" : "denied";
        const refunded = random() < 0.05 ? Math.round(subtotal / 3) : 0;
        order.run(
          `o${i}`,
          `gid://shopify/Order/${i}`,
          `#${i}`,
          subtotal,
          subtotal + 500,
          status,
          `a${a}`,
          refunded,
          placed,
          placed,
          placed,
        );
        commission.run(`c${i}`, `o${i}`, `a${a}`, 1, Math.round(subtotal / 10), placed, placed);
        const parent = parents[a];
        if (parent) commission.run(`u${i}`, `o${i}`, parent, 2, Math.round(subtotal / 33), placed, placed);
      }
    })();
  }
  for (const index of indexes) db.exec(index.sql);
  db.exec("ANALYZE");
  db.close();
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
}
const s = (ms: number) => (ms / 1000).toFixed(2);

export async function bonusTierBench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bonus-bench-"));
  const file = path.join(dir, "bench.sqlite");
  try {
    await migrate(`file:${file}`);
    const now = Date.now();
    const loadStart = performance.now();
    seed(file, now);
    console.log(`  seeded ${AFFILIATES} affiliates, ${ORDERS} orders in ${s(performance.now() - loadStart)} s`);
    const db = createDb(`file:${file}`);
    const firstOfLastMonth = new Date(now);
    firstOfLastMonth.setUTCDate(1);
    firstOfLastMonth.setUTCMonth(firstOfLastMonth.getUTCMonth() - 1);
    const startsOn = firstOfLastMonth.toISOString().slice(0, 10);
    const rule = (name: string, over: Record<string, unknown>) =>
      db.bonusRule.create({
        data: {
          shopId: "s",
          name,
          kind: "recurring",
          metric: "sales",
          threshold: 50,
          period: "monthly",
          rewardType: "fixed",
          rewardValue: 5_000,
          startsOn,
          ...over,
        },
      });
    await rule("Fifty sales", {});
    await rule("Revenue share", { metric: "revenue", threshold: 100_000, rewardType: "percent", rewardValue: 200 });
    await rule("Commission target", { metric: "commission", threshold: 20_000 });
    await rule("Booster", {
      kind: "booster",
      metric: "revenue",
      threshold: 200_000,
      rewardType: "percent",
      rewardValue: 300,
    });
    const ladder = [
      { campaignId: "bronze", metric: "sales", threshold: 0, windowDays: 0 },
      { campaignId: "silver", metric: "sales", threshold: 100, windowDays: 0 },
      { campaignId: "gold", metric: "revenue", threshold: 1_500_000, windowDays: 90 },
      { campaignId: "platinum", metric: "downline_sales", threshold: 2_000, windowDays: 365 },
    ];
    await db.tierRule.createMany({ data: ladder.map((t, i) => ({ ...t, shopId: "s", position: i + 1 })) });

    const baseline: number[] = [];
    const bonuses: number[] = [];
    const tiers: number[] = [];
    let created = 0;
    let moves = 0;
    for (let run = 0; run < RUNS; run++) {
      // Each run starts from scratch: no bonus line, everyone on the entry tier.
      await db.commission.deleteMany({ where: { kind: "bonus" } });
      await db.bonusRule.updateMany({ data: { evaluatedThrough: null } });
      await db.affiliate.updateMany({ data: { campaignId: "bronze" } });
      await db.tierMove.deleteMany({});
      await db.tierRun.deleteMany({});
      await db.domainEvent.deleteMany({});
      await db.job.deleteMany({});

      let t = performance.now();
      await db.$queryRawUnsafe(
        `SELECT "affiliateId", COUNT(*), SUM("subtotal") FROM "Order" WHERE "shopId" = 's' GROUP BY "affiliateId"`,
      );
      baseline.push(performance.now() - t);

      t = performance.now();
      const b = await db.$transaction((tx) => evaluateShopBonuses(tx, "s", new Date(now)), { timeout: 600_000 });
      bonuses.push(performance.now() - t);
      created = b.created;

      t = performance.now();
      const m = await db.$transaction((tx) => evaluateShopTiers(tx, "s", new Date(now)), { timeout: 600_000 });
      tiers.push(performance.now() - t);
      moves = m?.moves.length ?? 0;
    }
    await db.$disconnect();
    const [bs, ts, base] = [stats(bonuses), stats(tiers), stats(baseline)];
    const total = bs.median + ts.median;
    console.log(`  baseline (one grouped scan of all orders): ${s(base.min)} / ${s(base.median)} / ${s(base.max)} s`);
    console.log(`  monthly bonuses, 4 rules: ${s(bs.min)} / ${s(bs.median)} / ${s(bs.max)} s; ${created} bonus lines`);
    console.log(`  auto-tier, 4 tiers: ${s(ts.min)} / ${s(ts.median)} / ${s(ts.max)} s; ${moves} moves`);
    console.log(`  together ${s(total)} s (median) = ${(total / base.median).toFixed(1)}× the baseline scan`);
    return {
      checks: [
        {
          name: `bonuses + tiers for ${AFFILIATES} affiliates over ${ORDERS} orders: ${s(total)} s < ${TARGET_S} s`,
          pass: total < TARGET_S * 1000,
        },
        {
          name: `every run credited bonus lines and moved affiliates (${created} lines, ${moves} moves)`,
          pass: created > 0 && moves > 0,
        },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
