import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The worked example of a notification kind (notifications/kinds/
// affiliate-bonus-approved.ts): the merchant approves a bonus line, the
// review emits bonus.approved for the lines it moved, and the affiliate gets
// one e-mail per line, in the affiliate's language; a second review of the
// same line loses (409) and sends nothing; a denial sends nothing.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const DETAIL = "routes/$role.bonuses.$id";

async function adminOf(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

async function setup() {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id, { status: "active" });
  const anna = await buildAffiliate(shop.id, campaign.id, { firstName: "Anna" });
  await getDb().affiliate.update({ where: { id: anna.id }, data: { language: "de" } });
  const rule = await getDb().bonusRule.create({
    data: {
      shopId: shop.id,
      name: "Frühjahrsziel",
      kind: "recurring",
      metric: "sales",
      threshold: 3,
      period: "monthly",
      rewardType: "fixed",
      rewardValue: 2_500,
      startsOn: "2026-01-01",
    },
  });
  const line = (key: string) =>
    getDb().commission.create({
      data: {
        shopId: shop.id,
        affiliateId: anna.id,
        kind: "bonus",
        amount: 2_500,
        currency: "EUR",
        status: "pending",
        bonusRuleId: rule.id,
        bonusKey: key,
        sourceRef: key,
      },
    });
  return { shop, anna, rule, first: await line(`${rule.id}:a`), second: await line(`${rule.id}:b`) };
}

const review = (client: HttpClient, ruleId: string, intent: string, ids: string[]) =>
  client.postJson(`/admin/bonuses/${ruleId}?_data=${encodeURIComponent(DETAIL)}`, { intent, ids });

describe("bonus approved e-mail", () => {
  it("tells the affiliate once per approved line, in the affiliate's language, and nothing for a lost race or a denial", async () => {
    const { shop, anna, rule, first, second } = await setup();
    const admin = await adminOf(shop.id);

    expect((await review(admin, rule.id, "approve", [first.id])).status).toBe(200);
    await drainJobs();
    const mails = await getDb().outboxEmail.findMany({ where: { shopId: shop.id, kind: "affiliate.bonus_approved" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe(anna.email.toLowerCase());
    expect(mails[0]!.subject).toMatch(/^Bonus freigegeben: 25,00\s€$/);
    expect(mails[0]!.text).toContain("Hallo Anna");
    expect(mails[0]!.text).toContain("(Frühjahrsziel)");
    const events = await getDb().domainEvent.findMany({ where: { shopId: shop.id, type: "bonus.approved" } });
    expect(events.map((e) => JSON.parse(e.data))).toEqual([
      { commissionId: first.id, affiliateId: anna.id, bonusRuleId: rule.id, amount: 2_500, currency: "EUR" },
    ]);

    // The same line again: nothing to move, a conflict, no second event or e-mail.
    expect((await review(admin, rule.id, "approve", [first.id])).status).toBe(409);
    expect((await review(admin, rule.id, "deny", [second.id])).status).toBe(200);
    await drainJobs();
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "bonus.approved" } })).toBe(1);
    expect(await getDb().outboxEmail.count({ where: { shopId: shop.id, kind: "affiliate.bonus_approved" } })).toBe(1);
  });
});
