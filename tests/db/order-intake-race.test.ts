import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import type { Tx } from "~/db/transaction";
import { prismaBulk } from "~/db/bulk-sql.server";
import { ingestWebhook } from "~/db/webhook-store.server";
import { planWebhookEvents, processEvent } from "~/models/webhooks/process-webhook.server";
import { createJobWorker, drainJobs } from "~/worker/job-registry.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { fixtureWith, orderStatusUrl } from "../support/webhooks";

// Two PostgreSQL workers may batch webhooks of the same order (Shopify sends
// orders/create and orders/paid a moment apart): both plan the order as new,
// and the second one's INSERT waits on the first's uncommitted row. That
// second batch must skip the order, not fail with 23505 and fall back to
// running its jobs one by one. (SQLite runs one write transaction at a time:
// the race cannot happen there.)
applyTestEnv();
useTestDatabase();
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? "");

const SHOP = "race-shop.myshopify.com";
const ORDER_GID = "gid://shopify/Order/820982911946154508";

async function seed() {
  const db = getDb();
  const shop = await db.shop.create({
    data: { domain: SHOP, name: "Race shop", url: `https://${SHOP}`, adminEmail: "o@x.example", pricingPlan: "growth" },
  });
  const campaign = await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Main",
      status: "active",
      commissionType: "percent",
      commissionValue: 1000,
      cookieDays: 30,
    },
  });
  const affiliate = await db.affiliate.create({
    data: {
      shopId: shop.id,
      campaignId: campaign.id,
      email: "anna@aff.example",
      firstName: "Anna",
      lastName: "Test",
      status: "approved",
      referralCode: "ANNA",
    },
  });
  await db.coupon.create({ data: { shopId: shop.id, affiliateId: affiliate.id, code: "ANNA10" } });
  return shop;
}

const orderBody = () =>
  fixtureWith("orders_create.json", (o) => {
    o.cancelled_at = null;
    o.order_status_url = orderStatusUrl(SHOP);
    o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
  });

async function waitForLockWait() {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [row] = await getDb().$queryRawUnsafe<{ n: number }[]>(
      `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((row?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the second batch never waited on the first one's order");
}

/**
 * Worker B runs what is due while worker A holds its transaction: it must
 * wait on A's row, and once A commits, run exactly one job.
 */
async function workerBAfter(
  workerA: { release: () => void; committed: Promise<unknown> },
  log: (...args: unknown[]) => void = () => {},
) {
  const workerB = createJobWorker({ logger: { info: log, error: log } });
  const bRan = workerB.runDue();
  await waitForLockWait();
  workerA.release();
  await workerA.committed;
  expect(await bRan).toBe(1);
  await workerB.stop();
}

/**
 * Worker A: claims the webhook job of `eventId` (its lease keeps worker B
 * off it), writes in a transaction, marks the job done and holds the
 * transaction open until `release()` is called.
 */
async function workerAHolding(eventId: string, write: (tx: Tx) => Promise<void>) {
  const db = getDb();
  const job = (await db.job.findMany({ where: { type: "webhook", status: "queued" } })).find((j) =>
    j.payload.includes(eventId),
  )!;
  await db.job.update({
    where: { id: job.id },
    data: { status: "running", lockedBy: "worker-a", lockedUntil: new Date(Date.now() + 60_000), attempts: 1 },
  });
  let release!: () => void;
  const mayCommit = new Promise<void>((resolve) => (release = resolve));
  let wrote!: () => void;
  const hasWritten = new Promise<void>((resolve) => (wrote = resolve));
  const committed = db.$transaction(
    async (tx) => {
      await write(tx);
      await tx.job.update({ where: { id: job.id }, data: { status: "done", lockedUntil: null } });
      wrote();
      await mayCommit;
    },
    { timeout: 30_000 },
  );
  await hasWritten;
  return { release, committed };
}

describe.runIf(onPostgres)("two workers batching webhooks of the same order", () => {
  it("stores the order once, writes no 23505 and finishes both batches' jobs together", async () => {
    const shop = await seed();
    const body = orderBody();
    for (const [topic, webhookId] of [
      ["orders/create", "race-create"],
      ["orders/paid", "race-paid"],
    ] as const)
      expect(await ingestWebhook({ shopDomain: SHOP, topic, webhookId, apiVersion: "2026-07", rawBody: body })).toBe(
        "stored",
      );
    const db = getDb();
    const created = await db.webhookEvent.findFirstOrThrow({ where: { webhookId: "race-create" } });
    // Worker A's batch transaction, as the job queue runs it on PostgreSQL, on the orders/create job.
    const workerA = await workerAHolding(created.id, async (tx) => {
      const bulk = prismaBulk(tx, "postgresql");
      const plan = await planWebhookEvents(bulk, [created.id]);
      await plan.write(bulk);
    });

    // Worker B claims the orders/paid job and plans the same order as new.
    const lines: string[] = [];
    const log = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    await workerBAfter(workerA, log);

    expect(lines.filter((l) => /failed|23505|duplicate key/.test(l))).toEqual([]);
    const orders = await db.order.findMany({ where: { shopId: shop.id, shopifyGid: ORDER_GID } });
    expect(orders).toHaveLength(1);
    expect(await db.commission.count({ where: { orderId: orders[0]!.id } })).toBe(1);
    expect(await db.domainEvent.count({ where: { type: "sale.credited" } })).toBe(1);
    const after = await db.job.findMany({ where: { type: "webhook" } });
    expect(after.map((j) => [j.status, j.attempts])).toEqual([
      ["done", 1],
      ["done", 1],
    ]);
    expect(await db.webhookEvent.count({ where: { processedAt: null } })).toBe(0);
  });
});

describe.runIf(onPostgres)("two workers applying two refunds of the same order", () => {
  it("applies both, one after the other: the second reads the order as the first left it", async () => {
    const shop = await seed();
    const db = getDb();
    expect(
      await ingestWebhook({
        shopDomain: SHOP,
        topic: "orders/create",
        webhookId: "order",
        apiVersion: "2026-07",
        rawBody: orderBody(),
      }),
    ).toBe("stored");
    await drainJobs();
    // Two partial refunds of the order, one line each.
    const refund = (index: number) =>
      fixtureWith("refunds_create.json", (r) => {
        r.refund_line_items = [r.refund_line_items[index]];
        r.id = 900 + index;
        r.admin_graphql_api_id = `gid://shopify/Refund/${900 + index}`;
      });
    for (const index of [0, 1])
      expect(
        await ingestWebhook({
          shopDomain: SHOP,
          topic: "refunds/create",
          webhookId: `refund-${index}`,
          apiVersion: "2026-07",
          rawBody: refund(index),
        }),
      ).toBe("stored");
    const first = await db.webhookEvent.findFirstOrThrow({ where: { webhookId: "refund-0" } });
    // Worker A runs its job alone (as after a failed batch); worker B batches.
    const workerA = await workerAHolding(first.id, (tx) => processEvent(tx, first.id));
    await workerBAfter(workerA);

    const order = await db.order.findFirstOrThrow({ where: { shopId: shop.id, shopifyGid: ORDER_GID } });
    expect(JSON.parse(order.refundGids)).toEqual(["gid://shopify/Refund/900", "gid://shopify/Refund/901"]);
    expect(order.refundedAmount).toBe(8999 + 1999);
    const refunded = JSON.parse(order.lines).filter((l: { refundedQuantity: number }) => l.refundedQuantity > 0);
    expect(refunded).toHaveLength(2);
    expect(await db.commission.count({ where: { orderId: order.id, kind: "refund" } })).toBe(2);
  });
});
