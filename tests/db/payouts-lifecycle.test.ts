import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import type { Tx } from "~/db/transaction";
import { drainJobs } from "~/worker/job-registry.server";
import { affiliateBalance } from "~/models/payouts/balance.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { withPaymentSettings, paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { shopDb } from "~/db/shop-db.server";
import { chunks } from "~/lib/chunks";
import { paidImportStatus, runPaidImport, startPaidImport } from "~/models/payouts/csv/paid-import-job.server";
import { bind, dialectOf } from "~/db/dialect";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { cancelOrder } from "~/models/orders/adjust-order.server";
import { markPayoutFailed, markPayoutPaid } from "~/models/payouts/settle-payout.server";
import { buildCommission, buildOrder, buildPendingPayoutsInBulk } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// The payout lifecycle against the real database: refresh gathers the
// payable lines into one pending payout per affiliate and currency, a batch
// takes it, and it ends paid (lines paid) or failed (lines payable again).
applyTestEnv();
useTestDatabase();
useMoneyCheck();

const tx = <T>(fn: (t: Tx) => Promise<T>) => getDb().$transaction(fn);

async function setUp(minimumAmount = 0) {
  const shop = await buildShop();
  await getDb().shop.update({
    where: { id: shop.id },
    data: { settings: withPaymentSettings("{}", paymentSettingsSchema.parse({ minimumAmount })) },
  });
  const campaign = await buildCampaign(shop.id);
  const ana = await buildAffiliate(shop.id, campaign.id);
  const ben = await buildAffiliate(shop.id, campaign.id);
  let n = 0;
  const line = async (affiliateId: string, amount: number, status = "approved", currency = "USD") => {
    const order = await buildOrder(shop.id, { affiliateId, currency });
    return buildCommission(shop.id, order.id, affiliateId, { amount, status, currency, sourceRef: `l${n++}` });
  };
  return { shop, ana, ben, line };
}

const events = async (shopId: string, type: string) =>
  (await getDb().domainEvent.findMany({ where: { shopId, type } })).map(
    (e) => JSON.parse(e.data) as Record<string, unknown>,
  );

describe("pending payouts", () => {
  it("gathers each affiliate's payable lines per currency, at the minimum, and announces them", async () => {
    const { shop, ana, ben, line } = await setUp(1000);
    await line(ana.id, 800);
    await line(ana.id, 700);
    await line(ana.id, -100); // a refund line counts against the balance
    await line(ana.id, 5000, "pending"); // not approved yet
    await line(ana.id, 2500, "approved", "EUR");
    await line(ben.id, 900); // below the minimum: carries over

    const result = await tx((t) => refreshPendingPayouts(t, shop.id));
    expect(result).toEqual({ created: 2, updated: 0 });
    const payouts = await getDb().payout.findMany({ where: { shopId: shop.id }, orderBy: { currency: "asc" } });
    expect(payouts.map((p) => [p.affiliateId, p.currency, p.amount, p.status, p.openKey])).toEqual([
      [ana.id, "EUR", 2500, "pending", `${ana.id}:EUR`],
      [ana.id, "USD", 1400, "pending", `${ana.id}:USD`],
    ]);
    const usd = payouts[1]!;
    // A pending payout holds no lines (ADR 058): they stay loose until it leaves pending.
    expect(await getDb().commission.count({ where: { shopId: shop.id, payoutId: { not: null } } })).toBe(0);
    expect(await getDb().commission.count({ where: { affiliateId: ben.id, payoutId: null } })).toBe(1);
    expect((await events(shop.id, "payout.created")).map((e) => e.amount).sort()).toEqual([1400, 2500]);

    // New lines join the open payout instead of opening a second one.
    await line(ana.id, 600);
    expect(await tx((t) => refreshPendingPayouts(t, shop.id))).toEqual({ created: 0, updated: 1 });
    expect((await getDb().payout.findUniqueOrThrow({ where: { id: usd.id } })).amount).toBe(2000);
    expect(await getDb().payout.count({ where: { shopId: shop.id } })).toBe(2);
  });

  it("keeps a negative balance and carries it into the next payout", async () => {
    const { shop, ana, line } = await setUp(0);
    await line(ana.id, -1500); // refunded after the last payout
    expect(await tx((t) => refreshPendingPayouts(t, shop.id))).toEqual({ created: 0, updated: 0 });
    expect((await affiliateBalance(getDb(), { affiliateId: ana.id })).payable).toEqual([
      { currency: "USD", amount: -1500 },
    ]);
    await line(ana.id, 1000);
    expect(await tx((t) => refreshPendingPayouts(t, shop.id))).toEqual({ created: 0, updated: 0 });
    await line(ana.id, 2000);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const payout = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
    expect(payout.amount).toBe(1500);
    // Leaving pending, it takes the three lines, the negative one too.
    await tx((t) => createPayoutBatch(t, shop.id, { payoutIds: [payout.id], method: "manual", createdBy: "u1" }));
    expect(await getDb().commission.count({ where: { payoutId: payout.id } })).toBe(3);
    expect((await getDb().payout.findUniqueOrThrow({ where: { id: payout.id } })).amount).toBe(1500);
  });

  it("cancels an open payout that a refund takes below the minimum, releasing its lines", async () => {
    const { shop, ana, line } = await setUp(1000);
    await line(ana.id, 1200);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    await line(ana.id, -500);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const payout = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });
    expect([payout.status, payout.openKey]).toEqual(["cancelled", null]);
    expect(await getDb().commission.count({ where: { affiliateId: ana.id, payoutId: null, status: "approved" } })).toBe(
      2,
    );
  });
});

describe("a pending payout takes its lines as it leaves pending (ADR 058)", () => {
  it("pays a line approved after the list was read, not one a cancelled order voided", async () => {
    const { shop, ana, line } = await setUp(1000);
    await line(ana.id, 1500);
    const voided = await line(ana.id, 400);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const pending = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
    expect(pending.amount).toBe(1900);
    // After the list was read: one more sale approved, one order cancelled.
    const late = await line(ana.id, 700);
    const order = await getDb().order.findUniqueOrThrow({ where: { id: voided.orderId! } });
    await tx((t) => cancelOrder(t, shop.id, order.shopifyGid, new Date()));
    // The cancellation's refresh shows the balance without the voided line (and with the late one).
    expect((await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } })).amount).toBe(2200);

    await tx((t) => createPayoutBatch(t, shop.id, { payoutIds: [pending.id], method: "manual", createdBy: "u1" }));
    const taken = await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } });
    expect([taken.status, taken.amount]).toEqual(["processing", 2200]);
    const lines = await getDb().commission.findMany({ where: { payoutId: pending.id }, orderBy: { amount: "asc" } });
    expect(lines.map((l) => l.amount)).toEqual([700, 1500]);
    expect(lines.map((l) => l.id)).toContain(late.id);
    expect((await getDb().commission.findUniqueOrThrow({ where: { id: voided.id } })).status).toBe("void");
  });

  it("mark paid on a pending payout takes its lines; with nothing left to pay it is refused and changes nothing", async () => {
    const { shop, ana, line } = await setUp(1000);
    const only = await line(ana.id, 1500);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const pending = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
    // Its balance goes before anyone pays it (the order is cancelled; no refresh ran yet).
    await getDb().commission.update({ where: { id: only.id }, data: { status: "void" } });
    await expect(
      tx((t) => markPayoutPaid(t, shop.id, pending.id, { actor: "u1", by: "merchant" })),
    ).rejects.toMatchObject({ code: "conflict" });
    expect((await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("pending");

    const again = await line(ana.id, 1200);
    const { payout } = await tx((t) => markPayoutPaid(t, shop.id, pending.id, { actor: "u1", by: "merchant" }));
    expect([payout.status, payout.amount]).toEqual(["paid", 1200]);
    expect(await getDb().commission.findUniqueOrThrow({ where: { id: again.id } })).toMatchObject({
      payoutId: pending.id,
      status: "paid",
    });
  });
});

describe("a payout's lifecycle", () => {
  it("refresh → batch → paid: lines paid, one event, settling again changes nothing", async () => {
    const { shop, ana, line } = await setUp();
    await line(ana.id, 1000);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const pending = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });

    const { batchId } = await tx((t) =>
      createPayoutBatch(t, shop.id, { payoutIds: [pending.id], method: "manual", createdBy: "user-1" }),
    );
    const batch = await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect([batch.itemCount, JSON.parse(batch.totals)]).toEqual([1, [{ currency: "USD", amount: 1000 }]]);
    const processing = await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } });
    expect([processing.status, processing.batchId, processing.openKey]).toEqual(["processing", batchId, null]);
    // A manual batch is not sent by a job.
    expect(await getDb().job.count({ where: { type: "payouts.send-batch" } })).toBe(0);

    // New lines now open a new pending payout: the processing one is closed.
    await line(ana.id, 300);
    expect((await tx((t) => refreshPendingPayouts(t, shop.id))).created).toBe(1);

    const paidAt = new Date("2026-11-20T10:00:00Z");
    const first = await tx((t) =>
      markPayoutPaid(t, shop.id, pending.id, {
        reference: "BANK-42",
        paidAt,
        note: "wire",
        actor: "user-1",
        by: "merchant",
      }),
    );
    expect(first.changed).toBe(true);
    const again = await tx((t) =>
      markPayoutPaid(t, shop.id, pending.id, { reference: "OTHER", actor: "user-1", by: "merchant" }),
    );
    expect(again.changed).toBe(false);
    const paid = await getDb().payout.findUniqueOrThrow({ where: { id: pending.id }, include: { events: true } });
    expect([paid.status, paid.reference, paid.paidAt?.toISOString()]).toEqual([
      "paid",
      "BANK-42",
      paidAt.toISOString(),
    ]);
    expect(paid.events.map((e) => e.status)).toEqual(["pending", "processing", "paid"]);
    expect(await getDb().commission.findMany({ where: { payoutId: pending.id }, select: { status: true } })).toEqual([
      { status: "paid" },
    ]);
    expect(await events(shop.id, "payout.paid")).toEqual([
      { payoutId: pending.id, affiliateId: ana.id, method: "manual", amount: 1000, currency: "USD" },
    ]);
    expect((await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).status).toBe("done");
  });

  it("failed releases the lines back into the balance, once", async () => {
    const { shop, ana, line } = await setUp();
    await line(ana.id, 1000);
    await line(ana.id, 250);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const pending = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });
    await tx((t) => createPayoutBatch(t, shop.id, { payoutIds: [pending.id], method: "csv", createdBy: "u" }));
    expect((await affiliateBalance(getDb(), { affiliateId: ana.id })).payable).toEqual([]);

    await tx((t) => markPayoutFailed(t, shop.id, pending.id, { reason: "Account closed", actor: "u", by: "merchant" }));
    expect(
      (await tx((t) => markPayoutFailed(t, shop.id, pending.id, { reason: "again", actor: "u", by: "merchant" })))
        .changed,
    ).toBe(false);
    const failed = await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } });
    expect([failed.status, failed.failureReason]).toEqual(["failed", "Account closed"]);
    expect((await affiliateBalance(getDb(), { affiliateId: ana.id })).payable).toEqual([
      { currency: "USD", amount: 1250 },
    ]);
    expect(await events(shop.id, "payout.failed")).toHaveLength(1);
    // A paid payout cannot fail afterwards, nor a failed one be paid.
    await expect(
      tx((t) => markPayoutPaid(t, shop.id, pending.id, { actor: "u", by: "merchant" })),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    // The released lines open a fresh pending payout (the retry).
    expect((await tx((t) => refreshPendingPayouts(t, shop.id))).created).toBe(1);
  });

  it("refuses a batch of payouts that are not pending, not positive or not the shop's, and changes nothing", async () => {
    const { shop, ana, line } = await setUp();
    const other = await setUp();
    await line(ana.id, 1000);
    await other.line(other.ana.id, 1000);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    await tx((t) => refreshPendingPayouts(t, other.shop.id));
    const mine = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });
    const theirs = await getDb().payout.findFirstOrThrow({ where: { shopId: other.shop.id } });
    await expect(
      tx((t) => createPayoutBatch(t, shop.id, { payoutIds: [mine.id, theirs.id], method: "manual", createdBy: "u" })),
    ).rejects.toMatchObject({ code: "validation_failed", fields: { payoutIds: theirs.id } });
    expect((await getDb().payout.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe("pending");
    expect(await getDb().payoutBatch.count()).toBe(0);
  });

  it("sends a batch of a sending method through the job; with no sender installed its payouts fail back", async () => {
    const { shop, ana, line } = await setUp();
    await line(ana.id, 1000);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const pending = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });
    const { batchId } = await tx((t) =>
      createPayoutBatch(t, shop.id, { payoutIds: [pending.id], method: "discount_code", createdBy: "u" }),
    );
    const job = await getDb().job.findFirstOrThrow({ where: { type: "payouts.send-batch" } });
    expect(JSON.parse(job.payload)).toEqual({ batchId });
    const { PAYOUT_SENDERS } = await import("~/models/payouts/senders/index.server");
    await drainJobs();
    const after = await getDb().payout.findUniqueOrThrow({ where: { id: pending.id } });
    if (PAYOUT_SENDERS.discount_code) expect(after.status).not.toBe("pending");
    else expect([after.status, after.failureReason]).toEqual(["failed", "no_sender:discount_code"]);
  });
});

describe("one payout per line", () => {
  it("the database refuses a line in two payouts, and a second pending payout per affiliate and currency", async () => {
    const { shop, ana, line } = await setUp();
    const l = await line(ana.id, 1000);
    await tx((t) => refreshPendingPayouts(t, shop.id));
    const first = await getDb().payout.findFirstOrThrow({ where: { shopId: shop.id } });
    await tx((t) => createPayoutBatch(t, shop.id, { payoutIds: [first.id], method: "manual", createdBy: "u1" }));
    expect((await getDb().commission.findUniqueOrThrow({ where: { id: l.id } })).payoutId).toBe(first.id);

    const second = await getDb().payout.create({
      data: { shopId: shop.id, affiliateId: ana.id, amount: 1000, currency: "USD", status: "processing" },
    });
    // Moving the line from one payout to another: refused by the database
    // itself (a trigger; the target payout exists, so it is not the foreign
    // key, as the same update succeeds below once the line is released).
    await expect(getDb().commission.update({ where: { id: l.id }, data: { payoutId: second.id } })).rejects.toThrow();
    await expect(
      getDb().$executeRawUnsafe(
        bind(dialectOf(getDb()), `UPDATE "Commission" SET "payoutId" = ? WHERE "id" = ?`),
        second.id,
        l.id,
      ),
    ).rejects.toThrow();
    expect((await getDb().commission.findUniqueOrThrow({ where: { id: l.id } })).payoutId).toBe(first.id);
    // A second open payout for the same affiliate and currency: refused by the unique key.
    await getDb().payout.create({
      data: { shopId: shop.id, affiliateId: ana.id, amount: 1, currency: "USD", openKey: `${ana.id}:USD` },
    });
    await expect(
      getDb().payout.create({
        data: { shopId: shop.id, affiliateId: ana.id, amount: 1, currency: "USD", openKey: `${ana.id}:USD` },
      }),
    ).rejects.toThrow();
    // Released first (a failed payout), the line may join another one.
    await tx((t) => markPayoutFailed(t, shop.id, first.id, { reason: "test", actor: "u1", by: "merchant" }));
    expect((await getDb().commission.findUniqueOrThrow({ where: { id: l.id } })).payoutId).toBe(null);
    await getDb().commission.update({ where: { id: l.id }, data: { payoutId: second.id, status: "approved" } });
    expect((await getDb().commission.findUniqueOrThrow({ where: { id: l.id } })).payoutId).toBe(second.id);
  });
});

describe("large batches", () => {
  it("takes 2,500 payouts into one batch (more ids than one statement may bind)", async () => {
    const { shop, ana } = await setUp();
    const ids = Array.from({ length: 2500 }, (_, i) => `big-${String(i).padStart(4, "0")}`);
    await buildPendingPayoutsInBulk(shop.id, ana.campaignId, ids, 100);
    const { batchId } = await tx((t) =>
      createPayoutBatch(t, shop.id, { payoutIds: ids, method: "manual", createdBy: "u1" }),
    );
    const batch = await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect(batch.itemCount).toBe(2500);
    expect(JSON.parse(batch.totals)).toEqual([{ currency: "USD", amount: 250_000 }]);
    expect(await getDb().payout.count({ where: { batchId, status: "processing", method: "manual" } })).toBe(2500);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, status: "processing" } })).toBe(2500);
  });

  it("gathers pending payouts for 1,500 named affiliates (more ids than one statement may bind)", async () => {
    const { shop, ana } = await setUp();
    const campaignId = ana.campaignId;
    const ids = Array.from({ length: 1500 }, (_, i) => `aff-${String(i).padStart(4, "0")}`);
    for (const part of chunks(ids, 500)) {
      await getDb().affiliate.createMany({
        data: part.map((id) => ({
          id,
          shopId: shop.id,
          campaignId,
          email: `${id}@example.com`,
          firstName: "A",
          lastName: "B",
          status: "approved",
          referralCode: id.toUpperCase(),
        })),
      });
      await getDb().payout.createMany({
        data: part.map((id, i) => ({ shopId: shop.id, affiliateId: id, amount: 100 + i, currency: "USD" })),
      });
    }
    await tx((t) => refreshPendingPayouts(t, shop.id, { affiliateIds: ids }));
    // No lines behind them: the refresh empties and cancels every one of them.
    expect(await getDb().payout.count({ where: { shopId: shop.id, status: "cancelled" } })).toBe(1500);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, message: "below_minimum" } })).toBe(1500);
  });
});

describe("large paid-CSV import", () => {
  it("marks 2,500 payouts of a CSV batch paid with their references, history and events", async () => {
    const { shop, ana } = await setUp();
    const ids = Array.from({ length: 2500 }, (_, i) => `csv-${String(i).padStart(4, "0")}`);
    await buildPendingPayoutsInBulk(shop.id, ana.campaignId, ids, 100);
    const { batchId } = await tx((t) =>
      createPayoutBatch(t, shop.id, { payoutIds: ids, method: "csv", createdBy: "u1" }),
    );
    const csv = ["payout_id,reference,paid_at,note", ...ids.map((id, i) => `${id},REF-${i},2026-11-20,`)].join("\n");
    const db = shopDb(getDb(), shop.id);
    const importFile = async () => {
      const started = await startPaidImport(db, csv, "u1");
      if (!started.ok) throw new Error("the file was refused");
      await runPaidImport(getDb(), { shopId: shop.id, importId: started.importId });
      return paidImportStatus(db, started.importId);
    };
    expect(await importFile()).toMatchObject({ status: "done", paid: 2500, alreadyPaid: 0, refused: 0 });
    const sample = await getDb().payout.findUniqueOrThrow({ where: { id: "csv-0042" } });
    expect(sample).toMatchObject({ status: "paid", reference: "REF-42", openKey: null });
    expect(await getDb().payout.count({ where: { batchId, status: "paid" } })).toBe(2500);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, status: "paid" } })).toBe(2500);
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(2500);
    expect((await getDb().payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).status).toBe("done");
    // The same file again changes nothing.
    expect(await importFile()).toMatchObject({ status: "done", paid: 0, alreadyPaid: 2500, refused: 0 });
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "payout.paid" } })).toBe(2500);
  });
});
