// Child process of payouts-bench.ts: runs one measurement on the database
// named by DATABASE_URL and prints it as JSON, so its peak memory (maxRSS)
// is the refresh's alone.
import { getDb } from "../../app/db.server";
import { refreshPendingPayouts } from "../../app/models/payouts/refresh-pending-payouts.server";
import { createPayoutBatch } from "../../app/models/payouts/create-payout-batch.server";

async function main() {
  const db = getDb();
  await db.shop.count(); // open the connection outside the clock
  const what = process.argv[2];
  if (what === "pay") {
    // Pay every pending payout by hand in one batch: where the lines now
    // join their payouts (ADR 058), measured apart from the refresh before it.
    await db.$transaction((tx) => refreshPendingPayouts(tx, "shop"), { timeout: 600_000 });
    const ids = (await db.payout.findMany({ where: { shopId: "shop", status: "pending" }, select: { id: true } })).map(
      (p) => p.id,
    );
    const started = performance.now();
    await db.$transaction(
      (tx) => createPayoutBatch(tx, "shop", { payoutIds: ids, method: "manual", createdBy: "bench" }),
      { timeout: 600_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    const lines = await db.commission.count({ where: { payoutId: { not: null } } });
    console.log(
      JSON.stringify({ seconds, created: ids.length, lines, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
    );
    await db.$disconnect();
    return;
  }
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
  // What the pending payouts show, summed: every line's money, none held.
  const total =
    what === "baseline"
      ? 0
      : ((await db.payout.aggregate({ where: { shopId: "shop", status: "pending" }, _sum: { amount: true } }))._sum
          .amount ?? 0);
  const lines = await db.commission.count({ where: { payoutId: { not: null } } });
  console.log(JSON.stringify({ seconds, created, total, lines, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
