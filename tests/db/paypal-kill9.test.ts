import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { paypalBatchFor, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// kill -9 of the job worker between "batch sent" (PayPal made the batch) and
// "answer stored" (our payout_batch_id): a restarted worker sends the same
// sender_batch_id again, PayPal answers "duplicate", and the first batch is
// reconciled. PayPal makes one batch; every payout is paid once. Real
// processes: `npm run worker`'s script, on the test's database file.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();

const ROOT = path.resolve(__dirname, "../..");
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startWorker() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "paypal-kill9-"));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ["--import", "tsx", "app/cli/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PAYPAL_TIMEOUT_MS: "60000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("a worker killed between PayPal making the batch and the answer being stored pays nothing twice", async () => {
  const fake = paypal.fake();
  const db = getDb();
  const batch = await paypalBatchFor(["ana@example.com", "ben@example.com"]);
  // PayPal makes the batch and its answer never comes back.
  fake.postFaults.push("made-then-hang");

  const first = startWorker();
  await waitFor("PayPal to make the batch", () => fake.batchCount() === 1);
  const sending = await db.payoutBatch.findUniqueOrThrow({ where: { id: batch.batchId } });
  expect(sending).toMatchObject({ status: "sending", paypalBatchId: null });
  first.child.kill("SIGKILL");
  await waitFor("the worker to die", () => first.child.exitCode !== null || first.child.signalCode !== null);
  expect(first.child.signalCode).toBe("SIGKILL");

  // The dead worker's lease on the job would run out after a minute; end it
  // now instead of waiting (what the queue does when the lease expires).
  const job = await db.job.findFirstOrThrow({ where: { type: "payouts.send-batch" } });
  expect(job.status).not.toBe("done");
  await db.job.update({ where: { id: job.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });

  const second = startWorker();
  await waitFor(
    "every payout to be paid",
    async () => (await db.payout.count({ where: { batchId: batch.batchId, status: "paid" } })) === 2,
    45_000,
  ).catch((error) => {
    throw new Error(`${(error as Error).message}\n${second.output()}`);
  });
  second.child.kill("SIGTERM");

  expect(fake.batchCount()).toBe(1);
  expect(fake.posts.map((p) => p.senderBatchId)).toEqual([batch.batchId, batch.batchId]);
  const [made] = [...fake.batches.values()];
  expect(await db.payoutBatch.findUniqueOrThrow({ where: { id: batch.batchId } })).toMatchObject({
    paypalBatchId: made!.payoutBatchId,
    status: "done",
  });
  expect(await db.domainEvent.count({ where: { shopId: batch.shop.id, type: "payout.paid" } })).toBe(2);
  expect(fake.violations).toEqual([]);
}, 120_000);
