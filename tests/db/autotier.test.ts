import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { evaluateShopTiers } from "~/models/tiers/evaluate-tiers.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Auto-tier on a real database: the ladder saved over HTTP, moves up and
// down with their reasons, commissions already credited left as they were,
// one event per move, and affiliates off the ladder left alone.
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

    const result = await evaluateShopTiers(getDb(), shop.id);
    const campaignOf = async (id: string) => (await getDb().affiliate.findUniqueOrThrow({ where: { id } })).campaignId;
    expect(await campaignOf(seller.id)).toBe(silver.id);
    expect(await campaignOf(slipping.id)).toBe(silver.id);
    expect(await campaignOf(starter.id)).toBe(bronze.id);
    expect(await campaignOf(privateDeal.id)).toBe(vip.id);
    expect(result.moves.map((m) => m.direction).sort()).toEqual(["down", "up"]);

    const moves = await getDb().tierMove.findMany({ where: { shopId: shop.id }, orderBy: { direction: "asc" } });
    expect(moves.map((m) => [m.affiliateId, m.direction])).toEqual([
      [slipping.id, "down"],
      [seller.id, "up"],
    ]);
    expect(moves[1]!.reason).toBe(
      "Sales over the affiliate's lifetime: 3, reaching the threshold 3 of tier 2 (Silver).",
    );
    expect(moves[0]!.reason).toContain(
      "Revenue in the last 30 days: $0.00, below the threshold $1,000.00 of tier 3 (Gold)",
    );
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "affiliate.tier_changed" } })).toBe(2);
    // The commission credited before the move is untouched.
    expect(await getDb().commission.findUniqueOrThrow({ where: { id: credited.id } })).toMatchObject({
      amount: 2_000,
      status: "approved",
    });

    // Nothing changed since: no new move.
    expect((await evaluateShopTiers(getDb(), shop.id)).moves).toEqual([]);

    // The settings screen and the affiliate's page show the moves.
    const screen = await (await admin.get(`/admin/settings/autotier?_data=${encodeURIComponent(SETTINGS)}`)).json();
    expect(screen.autotier.moves).toHaveLength(2);
    const page = await (
      await admin.get(`/admin/affiliates/${seller.id}?_data=${encodeURIComponent("routes/$role.affiliates.$id")}`)
    ).json();
    expect(page.tierMoves[0].reason).toContain("tier 2 (Silver)");
  });

  it("does not demote without the switch, and does nothing when switched off", async () => {
    const { shop, bronze, gold, admin } = await setup();
    const top = await buildAffiliate(shop.id, gold.id);
    const tiers = [
      { campaignId: bronze.id, metric: "sales", threshold: "0", windowDays: "0" },
      { campaignId: gold.id, metric: "sales", threshold: "5", windowDays: "0" },
    ];
    await saveLadder(admin, { enabled: true, allowDemotion: false, tiers });
    expect((await evaluateShopTiers(getDb(), shop.id)).moves).toEqual([]);
    await saveLadder(admin, { enabled: false, allowDemotion: true, tiers });
    expect((await evaluateShopTiers(getDb(), shop.id)).moves).toEqual([]);
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
    expect((await evaluateShopTiers(getDb(), shop.id)).moves).toEqual([]);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: top.id } })).campaignId).toBe(gold.id);
    expect(await getDb().tierRule.count({ where: { shopId: shop.id } })).toBe(2);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    expect((await evaluateShopTiers(getDb(), shop.id)).moves).toHaveLength(1);
  });
});
