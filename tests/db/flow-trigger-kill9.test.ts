import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// kill -9 of the job worker while it waits on flowTriggerReceive (Shopify
// has not taken the trigger yet): the approval was committed, its trigger row
// and job with it (the dispatch), so a restarted worker sends the trigger;
// Shopify gets it once. Real processes: `npm run worker`'s script, on the
// test's database file, against the store simulator of this test.
applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();

const ROOT = path.resolve(__dirname, "../..");
const SHOP = "flow-kill9.myshopify.com";
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startWorker() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "flow-kill9-"));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ["--import", "tsx", "app/cli/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
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

const flowRequests = () =>
  sim.store.requests.filter((r) => String(r.body.query ?? "").includes("mutation FlowTriggerReceive"));
const received = () => sim.store.shop(SHOP).flowTriggers ?? [];

it("a worker killed while Shopify has not taken the trigger yet sends it once, after restart", async () => {
  const db = getDb();
  const shop = await buildShop({ domain: SHOP });
  await db.session.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: sim.accessToken(SHOP), scope: "" },
  });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "pending" });
  // The approval commits with its event; nothing has been sent yet.
  await setAffiliatesStatus(shopDb(db, shop.id), [affiliate.id], "approve");
  sim.store.stallNextOf(SHOP, "FlowTriggerReceive");

  const first = startWorker();
  await waitFor("the worker to send the trigger", () => flowRequests().length === 1).catch((error) => {
    throw new Error(`${(error as Error).message}\n${first.output()}`);
  });
  const trigger = await db.flowTrigger.findFirstOrThrow({ where: { shopId: shop.id } });
  expect(trigger).toMatchObject({ handle: "affiliate-approved", status: "pending" });
  first.child.kill("SIGKILL");
  await waitFor("the worker to die", () => first.child.exitCode !== null || first.child.signalCode !== null);
  expect(first.child.signalCode).toBe("SIGKILL");
  expect(received()).toHaveLength(0);

  // The dead worker's lease would run out after a minute; end it now (what the queue does then).
  const job = await db.job.findFirstOrThrow({ where: { type: "flow.trigger" } });
  expect(job.status).not.toBe("done");
  await db.job.update({ where: { id: job.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });

  const second = startWorker();
  await waitFor(
    "the trigger to be sent",
    async () => (await db.flowTrigger.findUniqueOrThrow({ where: { id: trigger.id } })).status === "sent",
    45_000,
  ).catch((error) => {
    throw new Error(`${(error as Error).message}\n${second.output()}`);
  });
  await waitFor(
    "the job to be done",
    async () => (await db.job.findUniqueOrThrow({ where: { id: job.id } })).status === "done",
  );
  second.child.kill("SIGTERM");

  expect(received()).toHaveLength(1);
  expect(received()[0]).toMatchObject({ handle: "affiliate-approved", payload: { "Affiliate ID": affiliate.id } });
  expect(flowRequests()).toHaveLength(2);
  expect(await db.flowTrigger.count({ where: { shopId: shop.id } })).toBe(1);
}, 120_000);
