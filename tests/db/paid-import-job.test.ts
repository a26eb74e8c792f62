import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { paidImportStatus, runPaidImport, startPaidImport } from "~/models/payouts/csv/paid-import-job.server";
import { markPayoutPaid } from "~/models/payouts/settle-payout.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildPendingPayoutsInBulk } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useMoneyCheck } from "../support/money-check";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The "payouts.paid-import" job: chunks that commit alone with their
// progress, a rerun that pays no payout twice, one upload per file while it
// runs, and a payout another writer pays meanwhile: exactly one of them
// pays it and emits its event, the other says why it did not.
applyTestEnv();
useTestDatabase();
useMoneyCheck();

async function processingPayouts(count: number) {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  const ana = await buildAffiliate(shop.id, campaign.id, { email: "ana@example.com" });
  const ids = Array.from({ length: count }, (_, i) => `po-${shop.id.slice(-6)}-${i}`);
  await buildPendingPayoutsInBulk(shop.id, ana.campaignId, ids, 100);
  await getDb().$transaction((tx) =>
    createPayoutBatch(tx, shop.id, { payoutIds: ids, method: "csv", createdBy: "u1" }),
  );
  return { shop, ids, db: shopDb(getDb(), shop.id) };
}

const fileOf = (ids: string[]) => ["payout_id,reference", ...ids.map((id, i) => `${id},REF-${i}`)].join("\n");
const paidEvents = (shopId: string) => getDb().domainEvent.count({ where: { shopId, type: "payout.paid" } });

describe("payouts.paid-import job", () => {
  it("shows progress between chunks; a rerun after a crash and a doubled run pay no payout twice", async () => {
    const { shop, ids, db } = await processingPayouts(25);
    const started = await startPaidImport(db, fileOf(ids), "u1");
    if (!started.ok) throw new Error("the file was refused");
    // The same file uploaded again while it waits is the same import.
    expect(await startPaidImport(db, fileOf(ids), "u1")).toEqual(started);
    expect(await getDb().job.count({ where: { type: "payouts.paid-import" } })).toBe(1);

    const payload = { shopId: shop.id, importId: started.importId };
    const seen: number[] = [];
    await expect(
      runPaidImport(getDb(), payload, {
        chunkSize: 10,
        afterChunk: async () => {
          seen.push((await paidImportStatus(db, started.importId)).processed);
          throw new Error("worker died");
        },
      }),
    ).rejects.toThrow("worker died");
    expect(seen).toEqual([10]);
    expect(await paidImportStatus(db, started.importId)).toMatchObject({ status: "running", processed: 10, paid: 10 });
    expect(await paidEvents(shop.id)).toBe(10);

    const results = await Promise.allSettled([
      runPaidImport(getDb(), payload, { chunkSize: 5 }),
      runPaidImport(getDb(), payload, { chunkSize: 5 }),
    ]);
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    await drainJobs();
    expect(await paidImportStatus(db, started.importId)).toMatchObject({
      status: "done",
      processed: 25,
      paid: 25,
      alreadyPaid: 0,
      refused: 0,
    });
    expect(await getDb().payout.count({ where: { shopId: shop.id, status: "paid" } })).toBe(25);
    expect(await paidEvents(shop.id)).toBe(25);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, status: "paid" } })).toBe(25);

    // Once it has finished, the same file is a new import that finds every payout paid.
    const again = await startPaidImport(db, fileOf(ids), "u1");
    if (!again.ok) throw new Error("the file was refused");
    expect(again.importId).not.toBe(started.importId);
    await drainJobs();
    expect(await paidImportStatus(db, again.importId)).toMatchObject({ status: "done", paid: 0, alreadyPaid: 25 });
    expect(await paidEvents(shop.id)).toBe(25);
    // Many short transactions; slow on a shared machine with PostgreSQL.
  }, 120_000);

  it("a payout paid by someone else between the job's read and its write is not paid again", async () => {
    const { shop, ids, db } = await processingPayouts(3);
    const started = await startPaidImport(db, fileOf(ids), "u1");
    if (!started.ok) throw new Error("the file was refused");
    await runPaidImport(
      getDb(),
      { shopId: shop.id, importId: started.importId },
      {
        // The job has read all three as processing; a person pays two of them
        // by hand first: one with the file's reference, one with another.
        beforeMark: async (tx) => {
          await markPayoutPaid(tx, shop.id, ids[0]!, { reference: "REF-0", actor: "u2", by: "merchant" });
          await markPayoutPaid(tx, shop.id, ids[1]!, { reference: "BY-HAND", actor: "u2", by: "merchant" });
        },
      },
    );
    const status = await paidImportStatus(db, started.importId);
    expect(status).toMatchObject({ status: "done", paid: 1, alreadyPaid: 1, refused: 1 });
    expect(status.report).toEqual([
      {
        row: 2,
        outcome: "alreadyPaid",
        column: "payout_id",
        message: 'Payouts:paidImport.reasons.alreadyPaid{"reference":"REF-0"}',
      },
      {
        row: 3,
        outcome: "refused",
        column: "payout_id",
        message: 'Payouts:paidImport.reasons.paidOtherReference{"reference":"BY-HAND"}',
      },
    ]);
    // One event and one history line per payout: the winner's.
    expect(await paidEvents(shop.id)).toBe(3);
    const history = await getDb().payoutEvent.findMany({ where: { shopId: shop.id, status: "paid" } });
    expect(history.map((h) => [h.payoutId, h.actor]).sort()).toEqual(
      [
        [ids[0], "u2"],
        [ids[1], "u2"],
        [ids[2], "u1"],
      ].sort(),
    );
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: ids[1]! } })).toMatchObject({
      reference: "BY-HAND",
    });
  });

  it("an import and a payment by hand racing for one payout: exactly one pays it", async () => {
    const { shop, ids, db } = await processingPayouts(1);
    const started = await startPaidImport(db, fileOf(ids), "u1");
    if (!started.ok) throw new Error("the file was refused");
    const byHand = getDb()
      .$transaction((tx) => markPayoutPaid(tx, shop.id, ids[0]!, { reference: "BY-HAND", actor: "u2", by: "merchant" }))
      .then(
        (r) => r.changed,
        () => false,
      );
    const [handWon] = await Promise.all([
      byHand,
      runPaidImport(getDb(), { shopId: shop.id, importId: started.importId }),
    ]);
    const status = await paidImportStatus(db, started.importId);
    const payout = await getDb().payout.findUniqueOrThrow({ where: { id: ids[0]! } });
    expect(payout.status).toBe("paid");
    if (handWon) {
      expect(payout.reference).toBe("BY-HAND");
      expect(status).toMatchObject({ paid: 0, refused: 1 });
    } else {
      expect(payout.reference).toBe("REF-0");
      expect(status).toMatchObject({ paid: 1, refused: 0 });
    }
    expect(await paidEvents(shop.id)).toBe(1);
    expect(await getDb().payoutEvent.count({ where: { shopId: shop.id, status: "paid" } })).toBe(1);
  });

  it("keeps shops apart: a file naming another shop's payouts refuses them", async () => {
    const mine = await processingPayouts(2);
    const theirs = await processingPayouts(1);
    const started = await startPaidImport(mine.db, fileOf([...mine.ids, ...theirs.ids]), "u1");
    if (!started.ok) throw new Error("the file was refused");
    await drainJobs();
    expect(await paidImportStatus(mine.db, started.importId)).toMatchObject({ paid: 2, refused: 1 });
    expect(await getDb().payout.findUniqueOrThrow({ where: { id: theirs.ids[0]! } })).toMatchObject({
      status: "processing",
    });
    await expect(paidImportStatus(theirs.db, started.importId)).rejects.toThrow();
  });
});
