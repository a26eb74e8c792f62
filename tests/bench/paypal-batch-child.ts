// One run of the PayPal batch benchmark, in its own process so its peak
// memory is its own: seeds 5,000 payouts in one PayPal batch on a fresh
// SQLite file, then times sendPaypalBatch (read the payouts, build the body,
// POST it to the fake PayPal, store the answer and 5,000 history lines).
// Prints one JSON line. Started by paypal-batch-bench.ts.
import { randomBytes } from "node:crypto";

const ITEMS = Number(process.env.BENCH_PAYPAL_ITEMS ?? 5000);

async function main() {
  const { migrate } = await import("../../app/db/migrate.server");
  await migrate(process.env.DATABASE_URL!);
  const { getDb } = await import("../../app/db.server");
  const { sealSecret } = await import("../../app/lib/secret-box.server");
  const { sendPaypalBatch } = await import("../../app/models/paypal/send-paypal-batch.server");
  const db = getDb();
  const shop = await db.shop.create({
    data: {
      domain: "bench-pay.myshopify.com",
      name: "Bench",
      url: "https://bench-pay.myshopify.com",
      adminEmail: "o@b.example",
    },
  });
  const campaign = await db.campaign.create({ data: { shopId: shop.id, name: "Bench" } });
  await db.paypalConnection.create({
    data: {
      shopId: shop.id,
      clientId: "bench-client",
      secretEncrypted: sealSecret("fake-secret", shop.id),
      verifiedAt: new Date(),
    },
  });
  const batch = await db.payoutBatch.create({ data: { shopId: shop.id, method: "paypal", itemCount: ITEMS } });
  const ids = Array.from({ length: ITEMS }, (_, i) => `a${i}-${randomBytes(3).toString("hex")}`);
  for (let i = 0; i < ITEMS; i += 1000) {
    const slice = ids.slice(i, i + 1000);
    await db.affiliate.createMany({
      data: slice.map((id, j) => ({
        id,
        shopId: shop.id,
        campaignId: campaign.id,
        email: `${id}@aff.example`,
        paypalEmail: `${id}@pay.example`,
        firstName: "A",
        lastName: "B",
        status: "approved",
        referralCode: `R${i + j}`,
      })),
    });
    await db.payout.createMany({
      data: slice.map((affiliateId, j) => ({
        shopId: shop.id,
        affiliateId,
        amount: 1000 + ((i + j) % 5000),
        currency: "USD",
        status: "processing",
        method: "paypal",
        batchId: batch.id,
      })),
    });
  }
  const before = process.memoryUsage().rss;
  const started = process.hrtime.bigint();
  await sendPaypalBatch(db, { id: batch.id, shopId: shop.id, method: "paypal" });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const stored = await db.payoutBatch.findUniqueOrThrow({ where: { id: batch.id } });
  if (!stored.paypalBatchId) throw new Error("the batch was not stored");
  const events = await db.payoutEvent.count({ where: { shopId: shop.id } });
  console.log(
    JSON.stringify({
      seconds,
      items: ITEMS,
      events,
      rssBeforeMb: before / 1048576,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
