// Child process of payouts-bench.ts: runs one measurement on the database
// named by DATABASE_URL and prints it as JSON, so its peak memory (maxRSS)
// is the refresh's alone.
import { getDb } from "../../app/db.server";
import { refreshPendingPayouts } from "../../app/models/payouts/refresh-pending-payouts.server";

async function main() {
  const db = getDb();
  await db.shop.count(); // open the connection outside the clock
  const what = process.argv[2];
  const started = performance.now();
  let created = 0;
  if (what === "baseline") {
    // The least any refresh must do: read every payable line once, grouped.
    const rows = await db.$queryRawUnsafe<unknown[]>(
      `SELECT "affiliateId", "currency", SUM("amount") FROM "Commission" WHERE "shopId" = 'shop' AND "status" = 'approved' AND "payoutId" IS NULL GROUP BY "affiliateId", "currency"`,
    );
    created = rows.length;
  } else {
    created = (await db.$transaction((tx) => refreshPendingPayouts(tx, "shop"), { timeout: 600_000 })).created;
  }
  const seconds = (performance.now() - started) / 1000;
  const lines = what === "baseline" ? 0 : await db.commission.count({ where: { payoutId: { not: null } } });
  console.log(JSON.stringify({ seconds, created, lines, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
