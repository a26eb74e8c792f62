import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// The MLM network over HTTP: the top of the tree, one level loaded on
// demand, member figures (sales, commission generated upward), search with
// the upline path, the affiliate page's uplines, and tenant scoping.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const ROUTE = "routes/$role.settings.networks";

async function admin(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

const network = async (client: HttpClient, query = "") =>
  (
    await (
      await client.get(`/admin/settings/networks?${query}${query ? "&" : ""}_data=${encodeURIComponent(ROUTE)}`)
    ).json()
  ).network;

describe("networks", () => {
  it("shows the tree level by level with each member's figures, and finds a member with their uplines", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id, { name: "Main", status: "active" });
    await getDb().campaignLevel.create({ data: { campaignId: campaign.id, level: 2, rate: 300 } });
    const top = await buildAffiliate(shop.id, campaign.id, { email: "top@x.example" });
    const mid = await buildAffiliate(shop.id, campaign.id, { email: "mid@x.example" });
    const leaf = await buildAffiliate(shop.id, campaign.id, { email: "leaf@x.example" });
    await buildAffiliate(shop.id, campaign.id, { email: "alone@x.example" });
    await getDb().affiliate.update({ where: { id: mid.id }, data: { parentId: top.id } });
    await getDb().affiliate.update({ where: { id: leaf.id }, data: { parentId: mid.id } });
    const order = await buildOrder(shop.id, { affiliateId: mid.id, status: "approved" });
    await buildCommission(shop.id, order.id, mid.id, { amount: 1_000 });
    await buildCommission(shop.id, order.id, top.id, { level: 2, amount: 300 });
    const client = await admin(shop.id);

    const root = await network(client);
    expect(root.level.members.map((m: { email: string }) => m.email)).toEqual(["top@x.example"]);
    expect(root.campaigns[0]).toMatchObject({
      name: "Main",
      levels: [{ level: 2, basis: "percent_of_sale", rate: 300 }],
    });

    const below = await network(client, `parent=${top.id}`);
    expect(below.level.members).toEqual([
      expect.objectContaining({
        email: "mid@x.example",
        recruits: 1,
        sales: 1,
        generatedUpward: [{ currency: "USD", amount: 300 }],
      }),
    ]);

    const found = await network(client, "q=leaf");
    expect(found.results).toHaveLength(1);
    expect(found.results[0].uplines.map((u: { id: string; level: number }) => [u.id, u.level])).toEqual([
      [mid.id, 2],
      [top.id, 3],
    ]);

    const page = await (
      await client.get(`/admin/affiliates/${mid.id}?_data=${encodeURIComponent("routes/$role.affiliates.$id")}`)
    ).json();
    expect(page.network.uplines.map((u: { id: string }) => u.id)).toEqual([top.id]);
    expect(page.network.downline.members.map((m: { id: string }) => m.id)).toEqual([leaf.id]);

    // Another shop's admin sees none of it.
    const other = await buildShop();
    const stranger = await admin(other.id);
    expect((await network(stranger, `parent=${top.id}`)).level.members).toEqual([]);
    expect((await network(stranger)).level.members).toEqual([]);
  });

  it("serves an affiliate's deeper levels through the affiliates area to staff without Settings", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id, { name: "Main", status: "active" });
    const top = await buildAffiliate(shop.id, campaign.id, { email: "top@x.example" });
    const mid = await buildAffiliate(shop.id, campaign.id, { email: "mid@x.example" });
    const leaf = await buildAffiliate(shop.id, campaign.id, { email: "leaf@x.example" });
    await getDb().affiliate.update({ where: { id: mid.id }, data: { parentId: top.id } });
    await getDb().affiliate.update({ where: { id: leaf.id }, data: { parentId: mid.id } });
    const email = "staff-aff@example.com";
    await buildUser(shop.id, { role: "staff", email, permissions: ["affiliates"] });
    const staff = new HttpClient(server.url);
    expect((await staff.postForm("/staff/login", { email, password: TEST_PASSWORD })).status).toBe(302);

    // Settings stays closed to them; the affiliate's own route opens level 3.
    expect(
      (await staff.get(`/staff/settings/networks?parent=${mid.id}&_data=${encodeURIComponent(ROUTE)}`)).status,
    ).toBe(403);
    const res = await staff.get(`/staff/affiliates/${mid.id}/network`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.network.level.members.map((m: { email: string }) => m.email)).toEqual(["leaf@x.example"]);
    expect(body.network.level.after).toBeNull();

    // Without the affiliates area, or for another shop's affiliate, nothing.
    const otherEmail = "staff-sales@example.com";
    await buildUser(shop.id, { role: "staff", email: otherEmail, permissions: ["sales"] });
    const sales = new HttpClient(server.url);
    expect((await sales.postForm("/staff/login", { email: otherEmail, password: TEST_PASSWORD })).status).toBe(302);
    const refused = await sales.get(`/staff/affiliates/${mid.id}/network`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("leaf@x.example");
    const other = await buildShop();
    const stranger = await admin(other.id);
    expect((await stranger.get(`/admin/affiliates/${mid.id}/network`)).status).toBe(404);
  });
});
