import { explanationIn } from "../support/attribution-reasons";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { evaluateShopBonuses } from "~/models/bonuses/evaluate-bonuses.server";
import { drainJobs } from "~/worker/job-registry.server";
import { balanceOf } from "~/models/payouts/payable-balance";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// Bonus rules end to end on a real database: the admin creates a rule over
// HTTP, the job evaluates closed periods in the shop's zone, lines are
// created once (re-evaluation, retries), a refund after the bonus leaves it
// standing, and approved lines join the payable balance.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const DETAIL = "routes/$role.bonuses.$id";
const LIST = "routes/$role.bonuses._index";

async function setup(timezone = "Europe/Berlin") {
  const shop = await buildShop();
  await getDb().shop.update({ where: { id: shop.id }, data: { timezone } });
  const campaign = await buildCampaign(shop.id, { name: "Main", status: "active" });
  const other = await buildCampaign(shop.id, { name: "VIP", status: "active" });
  const anna = await buildAffiliate(shop.id, campaign.id);
  const ben = await buildAffiliate(shop.id, campaign.id);
  const vip = await buildAffiliate(shop.id, other.id);
  return { shop, campaign, other, anna, ben, vip };
}

async function logIn(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

const sales = (shopId: string, affiliateId: string, placed: string[], subtotal = 10_000) =>
  Promise.all(
    placed.map((at) => buildOrder(shopId, { affiliateId, subtotal, placedAt: new Date(at), status: "approved" })),
  );

function rule(shopId: string, over: Record<string, unknown> = {}) {
  return getDb().bonusRule.create({
    data: {
      shopId,
      name: "March push",
      kind: "recurring",
      metric: "sales",
      threshold: 3,
      period: "monthly",
      rewardType: "fixed",
      rewardValue: 5_000,
      startsOn: "2026-01-01",
      ...over,
    },
  });
}

const bonusLines = (shopId: string) =>
  getDb().commission.findMany({ where: { shopId, kind: "bonus" }, orderBy: { amount: "asc" } });

describe("bonus evaluation", () => {
  it("pays a monthly bonus for the shop's calendar month, once, however often it runs", async () => {
    const { shop, anna, ben } = await setup();
    // 2026-03-31T22:30Z is already 1 April in Berlin: it belongs to April.
    await sales(shop.id, anna.id, ["2026-03-01T00:30:00Z", "2026-03-15T12:00:00Z", "2026-03-31T21:59:00Z"]);
    await sales(shop.id, ben.id, ["2026-03-02T10:00:00Z", "2026-03-10T10:00:00Z", "2026-03-31T22:30:00Z"]);
    await rule(shop.id);

    // Before March closes in Berlin nothing is due.
    expect((await evaluateShopBonuses(getDb(), shop.id, new Date("2026-03-31T21:59:59Z"))).created).toBe(0);
    const first = await evaluateShopBonuses(getDb(), shop.id, new Date("2026-04-02T00:00:00Z"));
    expect(first.created).toBe(1);
    const lines = await bonusLines(shop.id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ affiliateId: anna.id, amount: 5_000, status: "pending", orderId: null });
    expect(explanationIn("en", lines[0]!.explanation)).toBe(
      "Period bonus “March push”: 3 sales from Mar 1, 2026 to Mar 31, 2026 (threshold 3 sales); fixed $50.00.",
    );

    // Again, explicitly over every closed period: nothing new.
    const again = await evaluateShopBonuses(getDb(), shop.id, new Date("2026-04-03T00:00:00Z"), { again: true });
    expect(again.awards).toBeGreaterThan(0);
    expect(again.created).toBe(0);
    expect(await bonusLines(shop.id)).toHaveLength(1);
  });

  it("leaves a bonus standing after a refund, and never pays it twice", async () => {
    const { shop, anna } = await setup("UTC");
    const orders = await sales(shop.id, anna.id, [
      "2026-03-03T10:00:00Z",
      "2026-03-04T10:00:00Z",
      "2026-03-05T10:00:00Z",
    ]);
    await rule(shop.id, { metric: "revenue", threshold: 30_000, rewardType: "percent", rewardValue: 1_000 });
    await evaluateShopBonuses(getDb(), shop.id, new Date("2026-04-01T00:01:00Z"));
    const [line] = await bonusLines(shop.id);
    expect(line!.amount).toBe(3_000);

    // A refund after the period was evaluated takes the order below the threshold.
    await getDb().order.update({ where: { id: orders[0]!.id }, data: { refundedAmount: 5_000 } });
    await buildCommission(shop.id, orders[0]!.id, anna.id, {
      kind: "refund",
      sourceRef: "r1",
      amount: -500,
      status: "approved",
    });
    await evaluateShopBonuses(getDb(), shop.id, new Date("2026-04-05T00:00:00Z"), { again: true });
    const after = await bonusLines(shop.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: line!.id, amount: 3_000 });
  });

  it("limits a rule to its campaign, and of two boosters pays the larger", async () => {
    const { shop, other, anna, vip } = await setup("UTC");
    await sales(shop.id, anna.id, ["2026-02-03T10:00:00Z", "2026-02-04T10:00:00Z"], 60_000);
    await sales(shop.id, vip.id, ["2026-02-03T10:00:00Z", "2026-02-04T10:00:00Z"], 60_000);
    await rule(shop.id, { name: "VIP only", campaignId: other.id, threshold: 2 });
    await rule(shop.id, {
      name: "Small boost",
      kind: "booster",
      metric: "revenue",
      threshold: 100_000,
      rewardType: "percent",
      rewardValue: 200,
    });
    await rule(shop.id, {
      name: "Big boost",
      kind: "booster",
      metric: "revenue",
      threshold: 100_000,
      rewardType: "percent",
      rewardValue: 500,
    });
    await evaluateShopBonuses(getDb(), shop.id, new Date("2026-03-01T00:01:00Z"));
    const lines = await bonusLines(shop.id);
    const byAffiliate = (id: string) =>
      lines
        .filter((l) => l.affiliateId === id)
        .map((l) => l.amount)
        .sort();
    // 5 % of the 20 000 above the threshold; only the VIP campaign's affiliate gets the period bonus.
    expect(byAffiliate(anna.id)).toEqual([1_000]);
    expect(byAffiliate(vip.id)).toEqual([1_000, 5_000]);
    expect(explanationIn("en", lines.find((l) => l.amount === 1_000)!.explanation)).toContain(
      "Commission booster “Big boost”",
    );
  });

  it("counts no denied or voided sale, no sale of a pending affiliate, no other currency", async () => {
    const { shop, campaign, anna } = await setup("UTC");
    const pending = await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    await sales(shop.id, anna.id, ["2026-03-03T10:00:00Z", "2026-03-04T10:00:00Z"]);
    await buildOrder(shop.id, { affiliateId: anna.id, placedAt: new Date("2026-03-05T10:00:00Z"), status: "denied" });
    await buildOrder(shop.id, { affiliateId: anna.id, placedAt: new Date("2026-03-05T10:00:00Z"), status: "void" });
    await buildOrder(shop.id, { affiliateId: anna.id, placedAt: new Date("2026-03-05T10:00:00Z"), currency: "EUR" });
    await sales(shop.id, pending.id, ["2026-03-03T10:00:00Z", "2026-03-04T10:00:00Z", "2026-03-05T10:00:00Z"]);
    await rule(shop.id);
    const result = await evaluateShopBonuses(getDb(), shop.id, new Date("2026-04-01T00:01:00Z"));
    expect(result).toMatchObject({ periods: 3, created: 0 });
  });
});

describe("bonus screens and the job", () => {
  it("creates a rule over HTTP, the job credits the closed periods, and an approved line is payable", async () => {
    const { shop, anna } = await setup("UTC");
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 12));
    await sales(shop.id, anna.id, [lastMonth.toISOString(), lastMonth.toISOString()]);
    const admin = await logIn(shop.id);
    const startsOn = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const values = {
      name: "Two sales",
      kind: "recurring",
      campaign_id: "",
      metric: "sales",
      threshold: "2",
      period: "monthly",
      reward_type: "fixed",
      reward_value: "25.00",
      starts_on: startsOn,
      ends_on: "",
      status: "active",
    };
    const bad = await admin.postJson(`/admin/bonuses/new?_data=${encodeURIComponent(DETAIL)}`, {
      intent: "save",
      values: { ...values, reward_value: "-1" },
    });
    expect(bad.status).toBe(422);
    expect(await getDb().bonusRule.count()).toBe(0);

    const created = await admin.postJson(`/admin/bonuses/new?_data=${encodeURIComponent(DETAIL)}`, {
      intent: "save",
      values,
    });
    expect(created.status).toBe(204);
    const saved = await getDb().bonusRule.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(saved).toMatchObject({ threshold: 2, rewardValue: 2_500, campaignId: null });

    await drainJobs();
    const [line] = await bonusLines(shop.id);
    expect(line).toMatchObject({ affiliateId: anna.id, amount: 2_500, status: "pending", bonusRuleId: saved.id });
    // The next run waits for the current month to close.
    const next = await getDb().job.findFirst({ where: { type: "bonus.evaluate", status: "queued" } });
    expect(next!.runAt.getTime()).toBeGreaterThan(Date.now());

    const list = await (await admin.get(`/admin/bonuses?_data=${encodeURIComponent(LIST)}`)).json();
    expect(list.rules[0]).toMatchObject({ name: "Two sales", awarded: [{ currency: "USD", amount: 2_500, count: 1 }] });

    const review = await admin.postJson(`/admin/bonuses/${saved.id}?_data=${encodeURIComponent(DETAIL)}`, {
      intent: "approve",
      ids: [line!.id],
    });
    expect(review.status).toBe(200);
    const lines = await getDb().commission.findMany({ where: { affiliateId: anna.id } });
    expect(balanceOf(lines).payable).toEqual([{ currency: "USD", amount: 2_500 }]);

    // Another shop's admin cannot see or review it.
    const { shop: otherShop } = await setup("UTC");
    const stranger = await logIn(otherShop.id);
    expect((await stranger.get(`/admin/bonuses/${saved.id}?_data=${encodeURIComponent(DETAIL)}`)).status).toBe(404);
  });
});
