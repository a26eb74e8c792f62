import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { evaluateShopTiers } from "~/models/tiers/evaluate-tiers.server";
import { tierReasonText } from "~/models/tiers/evaluate-tiers";
import { fixedT } from "~/i18n/i18next.server";
import { languageInfo } from "~/i18n/language-table";
import { formatMoneyIn } from "~/i18n/format";
import { drainJobs } from "~/worker/job-registry.server";
import { ensureRecurringJobs } from "~/worker/recurring-jobs.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Auto-tier on a real database: the ladder saved over HTTP moves nobody; the
// preview, "apply now" and the nightly run move up and down with reasons
// stored as keys; commissions already credited stay as they were; one event
// per move; affiliates off the ladder are left alone; an undo moves back
// whoever is still where the run put them.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const SETTINGS = "routes/$role.settings.autotier";

async function setup() {
  const shop = await buildShop();
  const bronze = await buildCampaign(shop.id, { name: "Bronze", status: "active" });
  const silver = await buildCampaign(shop.id, { name: "Silver", status: "active" });
  const gold = await buildCampaign(shop.id, { name: "Gold", status: "active" });
  const vip = await buildCampaign(shop.id, { name: "Private deal", status: "private" });
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shop.id, { role: "admin", email });
  const admin = new HttpClient(server.url);
  expect((await admin.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return { shop, bronze, silver, gold, vip, admin };
}

const saveLadder = (admin: HttpClient, body: Record<string, unknown>) =>
  admin.postJson(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`, {
    intent: "save_autotier",
    ...body,
  });

describe("auto-tier", () => {
  it("moves affiliates up and down with reasons, never touching credited commissions", async () => {
    const { shop, bronze, silver, gold, vip, admin } = await setup();
    const starter = await buildAffiliate(shop.id, bronze.id);
    const seller = await buildAffiliate(shop.id, bronze.id);
    const slipping = await buildAffiliate(shop.id, gold.id);
    const privateDeal = await buildAffiliate(shop.id, vip.id);
    const placedAt = new Date(Date.now() - 5 * 86_400_000);
    const orders = await Promise.all(
      [1, 2, 3].map(() =>
        buildOrder(shop.id, { affiliateId: seller.id, status: "approved", placedAt, subtotal: 20_000 }),
      ),
    );
    const credited = await buildCommission(shop.id, orders[0]!.id, seller.id, { amount: 2_000, status: "approved" });
    await Promise.all(
      [1, 2, 3].map(() => buildOrder(shop.id, { affiliateId: privateDeal.id, status: "approved", placedAt })),
    );
    // Old sales, outside Gold's 30-day window.
    await Promise.all(
      [1, 2, 3].map(() =>
        buildOrder(shop.id, {
          affiliateId: slipping.id,
          status: "approved",
          placedAt: new Date("2024-01-01T00:00:00Z"),
          subtotal: 90_000,
        }),
      ),
    );

    const tiers = [
      { campaignId: bronze.id, metric: "sales", threshold: "0", windowDays: "0" },
      { campaignId: silver.id, metric: "sales", threshold: "3", windowDays: "0" },
      { campaignId: gold.id, metric: "revenue", threshold: "1000.00", windowDays: "30" },
    ];
    const bad = await saveLadder(admin, {
      enabled: true,
      allowDemotion: true,
      tiers: [tiers[0], { ...tiers[1], campaignId: bronze.id }],
    });
    expect(bad.status).toBe(422);
    expect(await getDb().tierRule.count()).toBe(0);

    expect((await saveLadder(admin, { enabled: true, allowDemotion: true, tiers })).status).toBe(200);
    expect(await getDb().tierRule.findMany({ orderBy: { position: "asc" }, select: { threshold: true } })).toEqual([
      { threshold: 0 },
      { threshold: 3 },
      { threshold: 100_000 },
    ]);
    const campaignOf = async (id: string) => (await getDb().affiliate.findUniqueOrThrow({ where: { id } })).campaignId;

    // Saving moves nobody, even once the due jobs have run: the run is the
    // nightly one, queued after the shop's next midnight.
    await drainJobs();
    expect(await campaignOf(seller.id)).toBe(bronze.id);
    expect(await getDb().tierMove.count({ where: { shopId: shop.id } })).toBe(0);
    const nightly = await getDb().job.findFirstOrThrow({ where: { type: "tier.evaluate", status: "queued" } });
    expect(nightly.runAt.getTime()).toBeGreaterThan(Date.now());

    // The screen previews who would move and why.
    const before = await (await admin.get(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`)).json();
    expect(before.autotier.nextRun).toBe(nightly.runAt.toISOString());
    expect(before.autotier.preview.count).toBe(2);
    expect(
      before.autotier.preview.moves.map((m: { affiliateId: string; toCampaignId: string }) => [
        m.affiliateId,
        m.toCampaignId,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [seller.id, silver.id],
        [slipping.id, silver.id],
      ]),
    );
    expect(await getDb().tierMove.count({ where: { shopId: shop.id } })).toBe(0);

    // "Apply now" for a count that is not the run's changes nothing.
    const stale = await admin.postJson(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`, {
      intent: "apply_now",
      expected: 5,
    });
    expect(stale.status).toBe(409);
    expect(await campaignOf(seller.id)).toBe(bronze.id);

    const applied = await admin.postJson(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`, {
      intent: "apply_now",
      expected: 2,
    });
    expect(applied.status).toBe(200);
    const { runId } = await applied.json();
    expect(await campaignOf(seller.id)).toBe(silver.id);
    expect(await campaignOf(slipping.id)).toBe(silver.id);
    expect(await campaignOf(starter.id)).toBe(bronze.id);
    expect(await campaignOf(privateDeal.id)).toBe(vip.id);
    expect(await getDb().tierRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      trigger: "manual",
      moved: 2,
      undoneAt: null,
    });

    const moves = await getDb().tierMove.findMany({ where: { shopId: shop.id }, orderBy: { direction: "asc" } });
    expect(moves.map((m) => [m.affiliateId, m.direction, m.runId])).toEqual([
      [slipping.id, "down", runId],
      [seller.id, "up", runId],
    ]);
    // The reason is stored as a key and values, and read in the reader's language.
    expect(moves[1]!.reason).toBe("");
    expect(moves[1]!.reasonKey).toBe("Settings:autotier.reasons.up");
    const render = (code: string, m: (typeof moves)[number]) =>
      tierReasonText(fixedT(languageInfo(code)!, ["Settings"]) as never, m, (minor, currency) =>
        formatMoneyIn(languageInfo(code)!.tag, minor, currency),
      );
    expect(render("en", moves[1]!)).toBe(
      "Sales over the affiliate's lifetime: 3, reaching the threshold 3 of tier 2 (Silver).",
    );
    expect(render("en", moves[0]!)).toContain(
      "Revenue in the last 30 days: $0.00, below the threshold $1,000.00 of tier 3 (Gold)",
    );
    expect(render("de", moves[0]!)).toContain("1.000,00");
    expect(render("de", moves[0]!)).not.toContain("below the threshold");
    const events = await getDb().domainEvent.findMany({ where: { shopId: shop.id, type: "affiliate.tier_changed" } });
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0]!.data).runId).toBe(runId);
    // The commission credited before the move is untouched.
    expect(await getDb().commission.findUniqueOrThrow({ where: { id: credited.id } })).toMatchObject({
      amount: 2_000,
      status: "approved",
    });

    // Nothing changed since: no new move.
    expect((await evaluateShopTiers(getDb(), shop.id))!.moves).toEqual([]);

    // The settings screen and the affiliate's page show the moves.
    const screen = await (await admin.get(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`)).json();
    expect(screen.autotier.moves).toHaveLength(2);
    expect(screen.autotier.runs.find((r: { id: string }) => r.id === runId)).toMatchObject({ moved: 2 });
    const page = await (
      await admin.get(`/admin/affiliates/${seller.id}?_data=${encodeURIComponent("routes/$role.affiliates.$id")}`)
    ).json();
    expect(page.tierMoves[0].reasonKey).toBe("Settings:autotier.reasons.up");

    // The merchant moves the seller by hand; the undo moves back only the
    // affiliate still where the run put them, reports the other, e-mails nobody.
    await getDb().affiliate.update({ where: { id: seller.id }, data: { campaignId: gold.id } });
    const undo = await admin.postJson(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`, {
      intent: "undo_run",
      runId,
    });
    expect(undo.status).toBe(200);
    expect((await undo.json()).undone).toEqual({
      restored: 1,
      skipped: [{ affiliateId: seller.id, name: expect.any(String), reason: "moved_since" }],
    });
    expect(await campaignOf(slipping.id)).toBe(gold.id);
    expect(await campaignOf(seller.id)).toBe(gold.id);
    expect(await getDb().tierRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ restored: 1 });
    expect(
      (await getDb().tierMove.findMany({ where: { runId }, orderBy: { direction: "asc" } })).map((m) => m.undo),
    ).toEqual(["undone", "moved_since"]);
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "affiliate.tier_changed" } })).toBe(2);
    // A second undo is a lost race: 409, nothing changes.
    const again = await admin.postJson(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`, {
      intent: "undo_run",
      runId,
    });
    expect(again.status).toBe(409);
    expect(await campaignOf(slipping.id)).toBe(gold.id);
  });

  it("runs on the nightly schedule, and the worker's start makes sure of the chain", async () => {
    const { shop, bronze, silver, admin } = await setup();
    const seller = await buildAffiliate(shop.id, bronze.id);
    await buildOrder(shop.id, { affiliateId: seller.id, status: "approved", placedAt: new Date() });
    const tiers = [
      { campaignId: bronze.id, metric: "sales", threshold: "0", windowDays: "0" },
      { campaignId: silver.id, metric: "sales", threshold: "1", windowDays: "0" },
    ];
    expect((await saveLadder(admin, { enabled: true, allowDemotion: false, tiers })).status).toBe(200);
    // A chain lost (a job that gave up) is queued again when a worker starts.
    await getDb().job.deleteMany({ where: { type: "tier.evaluate" } });
    expect((await ensureRecurringJobs()).autotier).toBe(1);
    const job = await getDb().job.findFirstOrThrow({ where: { type: "tier.evaluate", status: "queued" } });
    // It is due after the shop's next midnight: make it last night's, as the night would.
    const lastNight = new Date(Date.now() - 1000);
    await getDb().job.update({
      where: { id: job.id },
      data: { runAt: lastNight, uniqueKey: `tier.evaluate:${shop.id}:${lastNight.toISOString()}` },
    });
    await drainJobs();
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: seller.id } })).campaignId).toBe(silver.id);
    expect(await getDb().tierRun.findFirstOrThrow({ where: { shopId: shop.id } })).toMatchObject({
      trigger: "schedule",
      moved: 1,
    });
    // The affiliate's e-mail went out from the event's job, after the run's commit.
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id, toAddress: seller.email } })).toBe(1);
    // The chain goes on: the next night's run is queued.
    const next = await getDb().job.findFirstOrThrow({ where: { type: "tier.evaluate", status: "queued" } });
    expect(next.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("does not demote without the switch, and does nothing when switched off", async () => {
    const { shop, bronze, gold, admin } = await setup();
    const top = await buildAffiliate(shop.id, gold.id);
    const tiers = [
      { campaignId: bronze.id, metric: "sales", threshold: "0", windowDays: "0" },
      { campaignId: gold.id, metric: "sales", threshold: "5", windowDays: "0" },
    ];
    await saveLadder(admin, { enabled: true, allowDemotion: false, tiers });
    expect((await evaluateShopTiers(getDb(), shop.id))!.moves).toEqual([]);
    await saveLadder(admin, { enabled: false, allowDemotion: true, tiers });
    expect(await evaluateShopTiers(getDb(), shop.id)).toBeNull();
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: top.id } })).campaignId).toBe(gold.id);
  });

  it("moves nobody on a plan without auto-tier; the ladder is kept for an upgrade", async () => {
    const { shop, bronze, gold, admin } = await setup();
    const top = await buildAffiliate(shop.id, gold.id);
    const tiers = [
      { campaignId: bronze.id, metric: "sales", threshold: "0", windowDays: "0" },
      { campaignId: gold.id, metric: "sales", threshold: "5", windowDays: "0" },
    ];
    expect((await saveLadder(admin, { enabled: true, allowDemotion: true, tiers })).status).toBe(200);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    expect((await evaluateShopTiers(getDb(), shop.id))!.moves).toEqual([]);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: top.id } })).campaignId).toBe(gold.id);
    expect(await getDb().tierRule.count({ where: { shopId: shop.id } })).toBe(2);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    expect((await evaluateShopTiers(getDb(), shop.id))!.moves).toHaveLength(1);
  });
});
