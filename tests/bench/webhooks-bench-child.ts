// The outgoing-webhooks benchmark's measuring process (webhooks-bench.ts
// starts it with its own database in the environment): N events are stored
// as domain code stores them, then the clock runs while the job queue
// dispatches them and delivers each, signed, to a receiver on loopback.
// The baseline, in the same process: the same number of signed POSTs to the
// same receiver with the same parallelism, without the database.
import { migrate } from "../../app/db/migrate.server";
import { getDb } from "../../app/db.server";
import { emitEvent } from "../../app/models/events/emit-event.server";
import { drainJobs } from "../../app/worker/job-registry.server";
import { signedHeaders } from "../../app/models/webhooks-out/deliver-webhook.server";
import { newWebhookSecret } from "../../app/models/webhooks-out/endpoints.server";
import { postWebhook } from "../../app/models/webhooks-out/post-webhook.server";
import { WebhookReceiver } from "../support/webhook-receiver";

const EVENTS = Number(process.env.BENCH_WEBHOOKS ?? 1000);
const LANES = 8; // the webhooks.deliver job's concurrency

async function round(receiver: WebhookReceiver, shopId: string, affiliateId: string) {
  receiver.received.length = 0;
  const db = getDb();
  for (let i = 0; i < EVENTS; i += 100) {
    await db.$transaction(async (tx) => {
      for (let j = i; j < Math.min(EVENTS, i + 100); j++)
        await emitEvent(tx, shopId, "affiliate.approved", { affiliateId });
    });
  }
  const started = performance.now();
  await drainJobs();
  const seconds = (performance.now() - started) / 1000;
  if (receiver.received.length !== EVENTS) throw new Error(`received ${receiver.received.length} of ${EVENTS}`);
  return EVENTS / seconds;
}

async function baseline(receiver: WebhookReceiver, secret: string) {
  receiver.received.length = 0;
  const body = JSON.stringify({ type: "affiliate.approved", timestamp: new Date().toISOString(), data: {} });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = next++; i < EVENTS; i = next++) {
        const headers = signedHeaders(secret, `msg_${i}`, body, new Date());
        const result = await postWebhook(receiver.url(), headers, body, { allowPrivate: true });
        if (!result.ok) throw new Error(`baseline POST failed: ${result.error}`);
      }
    }),
  );
  return EVENTS / ((performance.now() - started) / 1000);
}

async function main() {
  await migrate(process.env.DATABASE_URL!);
  const db = getDb();
  const shop = await db.shop.create({
    data: {
      domain: "bench.myshopify.com",
      name: "Bench",
      url: "https://bench.myshopify.com",
      adminEmail: "o@b.example",
    },
  });
  const campaign = await db.campaign.create({ data: { shopId: shop.id, name: "Bench" } });
  const affiliate = await db.affiliate.create({
    data: {
      shopId: shop.id,
      campaignId: campaign.id,
      email: "a@b.example",
      firstName: "A",
      lastName: "B",
      referralCode: "BENCH",
    },
  });
  const receiver = await new WebhookReceiver().start();
  const secret = newWebhookSecret();
  await db.webhookEndpoint.create({
    data: { shopId: shop.id, url: receiver.url(), eventTypes: JSON.stringify(["affiliate.approved"]), secret },
  });
  const results: { app: number[]; raw: number[]; slowApp: number } = { app: [], raw: [], slowApp: 0 };
  // Alternating rounds, so both sides see the same machine load.
  for (let i = 0; i < 3; i++) {
    results.raw.push(await baseline(receiver, secret));
    results.app.push(await round(receiver, shop.id, affiliate.id));
  }
  // A receiver that takes 100 ms per answer: lanes overlap the waits.
  receiver.delayMs = 100;
  results.slowApp = await round(receiver, shop.id, affiliate.id);
  await receiver.stop();
  await db.$disconnect();
  process.stdout.write(`RESULT ${JSON.stringify(results)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
