// `npm run seed:large`: a SQLite database at the scale of the brief's
// dashboard bar (10k affiliates, 1M orders, 10M clicks over two years), for
// the dashboard benchmark and for looking at the admin with real volume.
//
//   LARGE_DATABASE_URL=file:/tmp/affiliate-large/large.sqlite npm run seed:large
//
// Deterministic (seeded generator), written with better-sqlite3 prepared
// statements in big transactions; the secondary indexes of the big tables
// are dropped during the load and built afterwards (a sorted build is many
// times faster than a million random inserts). Finally the dashboard rollup
// is built by the app's own code. Prints the time of each step.
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb } from "../db/client.server";
import { parseDatabaseUrl } from "../db/database-url";
import { migrate } from "../db/migrate.server";
import { randomInt, seededRandom } from "../lib/prng";
import { hashPassword } from "../models/auth/password.server";
import { refreshRollup } from "../models/dashboard/rollup.server";

const DAY = 86_400_000;
const HOUR = 3_600_000;

const SIZES = {
  affiliates: Number(process.env.SEED_AFFILIATES ?? 10_000),
  orders: Number(process.env.SEED_ORDERS ?? 1_000_000),
  clicks: Number(process.env.SEED_CLICKS ?? 10_000_000),
  days: 730,
};

export const LARGE_SHOP_DOMAIN = "large-store.myshopify.com";
export const LARGE_ADMIN_EMAIL = "admin@large-store.example";

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 23) + "+00:00";

function timer() {
  const started = Date.now();
  let last = started;
  return (label: string) => {
    const now = Date.now();
    console.log(`  ${label.padEnd(44)} ${((now - last) / 1000).toFixed(1).padStart(7)} s`);
    last = now;
    return (now - started) / 1000;
  };
}

/**
 * A time over the two years before `now`: traffic grows linearly (half the
 * rate two years ago, one and a half times now) and peaks in the evening
 * (New York time), with a floor through the night.
 */
function makeTime(random: () => number, now: number) {
  const start = now - SIZES.days * DAY;
  return () => {
    const u = random();
    const x = -0.5 + Math.sqrt(0.25 + 2 * u); // inverse CDF of density 0.5 + x on [0, 1]
    const day = Math.floor((x * SIZES.days * DAY) / DAY);
    const eveningUtc = 23.5; // 18:30 in New York
    const hour = random() < 0.7 ? eveningUtc + (random() + random() + random() - 1.5) * 5 : random() * 24;
    const t = start + day * DAY + (((hour % 24) + 24) % 24) * HOUR + random() * HOUR * 0.01;
    return Math.min(t, now - 1000);
  };
}

async function main() {
  const url = process.env.LARGE_DATABASE_URL ?? "file:/tmp/affiliate-large/large.sqlite";
  const target = parseDatabaseUrl(url);
  if (target.provider !== "sqlite") {
    console.error("seed:large writes SQLite only (LARGE_DATABASE_URL=file:/path/large.sqlite).");
    process.exit(2);
  }
  const file = target.file;
  mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(file + suffix)) rmSync(file + suffix);
  console.log(`seed:large → ${file}`);
  console.log(
    `  ${SIZES.affiliates} affiliates, ${SIZES.orders} orders, ${SIZES.clicks} clicks over ${SIZES.days} days`,
  );
  const step = timer();
  await migrate(url);
  step("migrations");

  const now = Date.now();
  const random = seededRandom(20261122);
  const db = new Database(file);
  // The migrations left the file in WAL mode; a bulk load needs no journal
  // (a failed seed is simply run again).
  db.pragma("journal_mode = DELETE");
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000");
  db.pragma("temp_store = MEMORY");

  // Secondary indexes of the big tables: dropped now, built after the load.
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('Click', 'Order', 'Commission')`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);

  const shopId = "large-shop";
  const password = process.env.SEED_LARGE_PASSWORD ?? "large-store-admin";
  const created = iso(now - SIZES.days * DAY - 7 * DAY);
  db.prepare(
    `INSERT INTO "Shop" (id, domain, name, url, adminEmail, shopifyPlan, pricingPlan, currency, moneyFormat, timezone, installedAt, createdAt, updatedAt)
     VALUES (?, ?, 'Large Outdoor Store', ?, ?, 'Advanced', 'growth', 'USD', '\${{amount}}', 'America/New_York', ?, ?, ?)`,
  ).run(shopId, LARGE_SHOP_DOMAIN, `https://${LARGE_SHOP_DOMAIN}`, LARGE_ADMIN_EMAIL, created, created, created);
  db.prepare(
    `INSERT INTO "User" (id, shopId, role, email, name, passwordHash, createdAt, updatedAt) VALUES ('large-admin', ?, 'admin', ?, 'Large Admin', ?, ?, ?)`,
  ).run(shopId, LARGE_ADMIN_EMAIL, await hashPassword(password), created, created);
  const campaigns = ["camp-standard", "camp-vip", "camp-creators"];
  const insertCampaign = db.prepare(
    `INSERT INTO "Campaign" (id, shopId, name, status, isDefault, commissionType, commissionValue, createdAt, updatedAt) VALUES (?, ?, ?, 'active', ?, 'percent', ?, ?, ?)`,
  );
  campaigns.forEach((id, i) =>
    insertCampaign.run(
      id,
      shopId,
      ["Standard", "VIP", "Creators"][i],
      i === 0 ? 1 : 0,
      [1000, 1500, 1200][i],
      created,
      created,
    ),
  );
  db.prepare(
    `INSERT INTO "CampaignLevel" (id, campaignId, level, basis, rate) VALUES ('lvl2', 'camp-standard', 2, 'percent_of_sale', 300), ('lvl3', 'camp-standard', 3, 'percent_of_sale', 100)`,
  ).run();

  // Affiliates: most approved, some waiting, a few denied; a third recruited by another.
  const affiliates: { id: string; parent: number | null; rate: number }[] = [];
  const insertAffiliate = db.prepare(
    `INSERT INTO "Affiliate" (id, shopId, campaignId, parentId, email, firstName, lastName, status, referralCode, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < SIZES.affiliates; i++) {
      const parent = i > 50 && random() < 0.33 ? Math.floor(random() * i) : null;
      const campaign = campaigns[i % 10 === 0 ? 1 : i % 7 === 0 ? 2 : 0]!;
      const r = random();
      const status = r < 0.02 ? "pending" : r < 0.04 ? "denied" : "approved";
      const id = `aff${String(i).padStart(6, "0")}`;
      const joined = iso(now - SIZES.days * DAY + (i / SIZES.affiliates) * SIZES.days * DAY * 0.9);
      insertAffiliate.run(
        id,
        shopId,
        campaign,
        parent === null ? null : affiliates[parent]!.id,
        `affiliate${i}@partners.example`,
        `Partner`,
        `No. ${i}`,
        status,
        `P${i.toString(36).toUpperCase().padStart(4, "0")}`,
        joined,
        joined,
      );
      affiliates.push({
        id,
        parent,
        rate: campaign === "camp-vip" ? 1500 : campaign === "camp-creators" ? 1200 : 1000,
      });
    }
  })();
  step("shop, campaigns, affiliates");

  // A few affiliates earn most (a power law), as in every real program.
  const popular = () => Math.min(SIZES.affiliates - 1, Math.floor(SIZES.affiliates * random() ** 3));

  const clickTime = makeTime(random, now);
  const insertClick = db.prepare(
    `INSERT INTO "Click" (id, shopId, affiliateId, clickId, source, landingUrl, referrer, ipHash, userAgent, createdAt) VALUES (?, ?, ?, ?, 'link', ?, ?, ?, NULL, ?)`,
  );
  const landings = [
    "https://large-store.example/",
    "https://large-store.example/products/trail-runner",
    "https://large-store.example/collections/summer",
  ];
  const referrers = ["https://www.instagram.com/", "https://www.youtube.com/", "https://www.tiktok.com/", null];
  const BATCH = 200_000;
  for (let done = 0; done < SIZES.clicks; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, SIZES.clicks); i++) {
        const n = i.toString(36).padStart(7, "0");
        insertClick.run(
          `ck${n}`,
          shopId,
          affiliates[popular()]!.id,
          `cl${n}`,
          landings[i % 3],
          referrers[i % 4],
          `ip${(i * 2654435761) % 1_000_003}`,
          iso(clickTime()),
        );
      }
    })();
  }
  step(`${SIZES.clicks} clicks`);

  const orderTime = makeTime(random, now);
  const insertOrder = db.prepare(
    `INSERT INTO "Order" (id, shopId, shopifyGid, name, customerEmail, currency, subtotal, total, status, affiliateId, attributionSource, attributionReason, refundedAmount, placedAt, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertCommission = db.prepare(
    `INSERT INTO "Commission" (id, shopId, orderId, affiliateId, level, kind, sourceRef, explanation, amount, currency, status, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, 'USD', ?, ?, ?)`,
  );
  let commissions = 0;
  const statusFor = (ageDays: number) => {
    const r = random();
    if (ageDays > 30)
      return r < 0.85 ? "paid" : r < 0.9 ? "approved" : r < 0.95 ? "denied" : r < 0.98 ? "void" : "pending";
    if (ageDays > 3) return r < 0.6 ? "approved" : r < 0.9 ? "pending" : r < 0.95 ? "denied" : "void";
    return r < 0.9 ? "pending" : "approved";
  };
  for (let done = 0; done < SIZES.orders; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, SIZES.orders); i++) {
        const placed = orderTime();
        const stamp = iso(Math.min(now - 1000, placed + randomInt(random, 1, 30) * 1000));
        const credited = random() < 0.85;
        const affiliate = credited ? affiliates[popular()]! : null;
        const subtotal = randomInt(random, 1500, 25_000);
        const status = credited ? statusFor((now - placed) / DAY) : "pending";
        const refunded =
          status !== "void" && status !== "denied" && random() < 0.05
            ? Math.round(subtotal * (0.2 + random() * 0.5))
            : 0;
        const id = `or${i.toString(36).padStart(6, "0")}`;
        insertOrder.run(
          id,
          shopId,
          `gid://shopify/Order/${5_000_000_000 + i}`,
          `#${1001 + i}`,
          `customer${randomInt(random, 1, 400_000)}@mail.example`,
          subtotal,
          subtotal + Math.round(subtotal * 0.08) + 500,
          status,
          affiliate?.id ?? null,
          credited ? (random() < 0.7 ? "link" : "coupon") : "none",
          // No decision was taken here: the sale page words the source in the reader's language.
          "",
          refunded,
          iso(placed),
          stamp,
          stamp,
        );
        if (!affiliate) continue;
        const line = (earnerId: string, level: number, kind: string, ref: string, amount: number, lineStatus: string) =>
          insertCommission.run(
            `cm${(commissions++).toString(36).padStart(7, "0")}`,
            shopId,
            id,
            earnerId,
            level,
            kind,
            ref,
            amount,
            lineStatus,
            stamp,
            stamp,
          );
        let level = 1;
        let earner: (typeof affiliates)[number] | undefined = affiliate;
        while (earner && level <= 3) {
          const rate = level === 1 ? earner.rate : level === 2 ? 300 : 100;
          const earned = Math.round((subtotal * rate) / 10_000);
          line(earner.id, level, "sale", "", earned, status);
          if (refunded) {
            // The refund adjustment shares the sale's status; money already paid comes back approved.
            const kept = Math.round(((subtotal - refunded) * rate) / 10_000);
            line(
              earner.id,
              level,
              "refund",
              `gid://shopify/Refund/${i}`,
              kept - earned,
              status === "paid" ? "approved" : status,
            );
          }
          earner = earner.parent === null ? undefined : affiliates[earner.parent];
          level++;
        }
      }
    })();
  }
  step(`${SIZES.orders} orders, ${commissions} commission lines`);

  for (const index of indexes) db.exec(index.sql);
  step(`${indexes.length} indexes built`);
  // Sampled statistics: enough for the planner, seconds instead of minutes.
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE");
  db.pragma("journal_mode = WAL");
  db.close();
  step("ANALYZE");

  // The rollup, by the app's own code (what the dashboard.rollup job runs).
  const client = createDb(url);
  await client.$transaction((tx) => refreshRollup(tx, shopId, new Date()), { timeout: 600_000, maxWait: 600_000 });
  const hours = await client.dashboardHour.count({ where: { shopId } });
  const total = step(`dashboard rollup (${hours} hour buckets)`);
  await client.$disconnect();
  const size = ["", "-wal"].reduce((s, x) => s + (existsSync(file + x) ? statSync(file + x).size : 0), 0);
  console.log(`\n  total ${total.toFixed(1)} s, database ${(size / 1024 ** 3).toFixed(2)} GiB`);
  console.log(`  log in at /login as ${LARGE_ADMIN_EMAIL} / ${password} (DATABASE_URL=${url} npm run serve)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
