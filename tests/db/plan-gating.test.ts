import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { emptyCampaignForm } from "~/models/campaigns/campaign-form";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Plan gating on the server (docs/decisions/029): features above the plan
// answer 403 with an upgrade message, limits refuse one more, and after a
// downgrade the rows over the limit (newest by creation order) stay readable
// but refuse every edit.

applyTestEnv();
useTestDatabase();
const server = useTestServer();

const origin = () => ({ origin: server.url("").replace(/\/$/, "") });
const data = (route: string) => `_data=${encodeURIComponent(route)}`;
const CAMPAIGN = data("routes/$role.campaigns.$id");
const CAMPAIGNS = data("routes/$role.campaigns._index");
const AFFILIATE = data("routes/$role.affiliates.$id");
const AFFILIATES = data("routes/$role.affiliates._index");

async function login(shopId: string) {
  const user = await buildUser(shopId, { role: "admin" });
  const client = new HttpClient(server.url);
  const res = await client.postForm("/login", { email: user.email, password: TEST_PASSWORD }, origin());
  expect(res.status).toBe(302);
  return client;
}

/** `count` campaigns created one second apart, oldest first. */
async function campaignsInOrder(shopId: string, count: number) {
  const start = Date.now() - 3_600_000;
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push(
      await getDb().campaign.create({
        data: { shopId, name: `Campaign ${i + 1}`, status: "active", createdAt: new Date(start + i * 1000) },
      }),
    );
  }
  return rows;
}

async function affiliatesInOrder(shopId: string, campaignId: string, count: number) {
  const start = Date.now() - 3_600_000;
  await getDb().affiliate.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      shopId,
      campaignId,
      email: `a${i + 1}@example.com`,
      firstName: "A",
      lastName: String(i + 1),
      referralCode: `code${i + 1}`,
      status: i === count - 1 ? "pending" : "approved",
      createdAt: new Date(start + i * 1000),
    })),
  });
  return getDb().affiliate.findMany({ where: { shopId }, orderBy: { createdAt: "asc" } });
}

const saveCampaign = (client: HttpClient, id: string, values: Record<string, unknown>) =>
  client.postJson(`/admin/campaigns/${id}?${CAMPAIGN}`, { intent: "save", values }, origin());

describe("the REST API is the integrations feature", () => {
  it("answers 403 with an upgrade message on a plan without it, and works again after upgrading", async () => {
    const shop = await buildShop();
    await buildCampaign(shop.id);
    const { key } = await buildApiKey(shop.id);
    const api = new ApiClient(server.url, key);
    expect((await api.get("/api/v1/campaigns")).status).toBe(200);

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    for (const res of [
      await api.get("/api/v1/campaigns"),
      await api.post("/api/v1/campaigns", { name: "Not made" }),
      await api.get("/api/v1/shop"),
    ]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as { error: { code: string; message: string }; upgrade: { plan: string } };
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toMatch(/REST API is not included .* growth plan\. Upgrade to the pro plan/);
      expect(body.upgrade).toEqual({ feature: "integrations", plan: "pro" });
    }
    expect(await getDb().campaign.count({ where: { shopId: shop.id, name: "Not made" } })).toBe(0);
    // Still 401 without a key: the plan is the key's shop's.
    expect((await new ApiClient(server.url).get("/api/v1/campaigns")).status).toBe(401);

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "pro" } });
    expect((await api.get("/api/v1/campaigns")).status).toBe(200);
  });
});

describe("the campaign limit", () => {
  it("refuses a new or duplicated campaign above the plan's limit with an upgrade message", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const [first] = await campaignsInOrder(shop.id, 3);
    const client = await login(shop.id);
    const res = await saveCampaign(client, "new", { ...emptyCampaignForm(false), name: "Fourth" });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { message: string; messageKey: { key: string } } };
    expect(body.error.message).toBe("Your plan includes 3 campaigns. Upgrade to add more.");
    expect(body.error.messageKey.key).toBe("Plans:errors.campaignLimit");
    const dup = await client.postJson(`/admin/campaigns/${first!.id}?${CAMPAIGN}`, { intent: "duplicate" }, origin());
    expect(dup.status).toBe(409);
    expect(await getDb().campaign.count({ where: { shopId: shop.id } })).toBe(3);

    // Growth's limit is 10: the same request creates it.
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    const made = await saveCampaign(client, "new", { ...emptyCampaignForm(false), name: "Fourth" });
    expect(made.status).toBe(204);
    expect(await getDb().campaign.count({ where: { shopId: shop.id } })).toBe(4);
  });

  it("after a downgrade keeps every campaign readable; the newest over the limit refuse edits and say why", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    const rows = await campaignsInOrder(shop.id, 5);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    const client = await login(shop.id);

    const list = await client.get(`/admin/campaigns?${CAMPAIGNS}`);
    expect(list.status).toBe(200);
    const listed = (await list.json()) as {
      campaigns: { id: string }[];
      planLimit: unknown;
      readOnly: { count: number; names: string[]; ids: string[] };
    };
    expect(listed.campaigns).toHaveLength(5);
    expect(listed.planLimit).toEqual({ max: 3, count: 5, over: true, full: true });
    expect(listed.readOnly.count).toBe(2);
    expect(listed.readOnly.names).toEqual(["Campaign 4", "Campaign 5"]);
    expect(listed.readOnly.ids.sort()).toEqual([rows[3]!.id, rows[4]!.id].sort());

    // Readable, marked read-only.
    const locked = await client.get(`/admin/campaigns/${rows[4]!.id}?${CAMPAIGN}`);
    expect(locked.status).toBe(200);
    expect(await locked.json()).toMatchObject({ campaign: { name: "Campaign 5" }, readOnly: true });
    const open = await client.get(`/admin/campaigns/${rows[0]!.id}?${CAMPAIGN}`);
    expect(await open.json()).toMatchObject({ readOnly: false });

    const values = { ...emptyCampaignForm(false), name: "Renamed", status: "active" };
    const refused = await saveCampaign(client, rows[4]!.id, values);
    expect(refused.status).toBe(403);
    const error = ((await refused.json()) as { error: { message: string } }).error;
    expect(error.message).toContain("over your plan's limit of 3 campaigns");
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: rows[4]!.id } })).name).toBe("Campaign 5");

    // A bulk change that touches one read-only row changes nothing.
    const bulk = await client.postJson(
      `/admin/campaigns?${CAMPAIGNS}`,
      { intent: "set_status", status: "draft", ids: [rows[0]!.id, rows[3]!.id] },
      origin(),
    );
    expect(bulk.status).toBe(403);
    expect(await getDb().campaign.count({ where: { shopId: shop.id, status: "draft" } })).toBe(0);

    // The editable ones still save.
    expect((await saveCampaign(client, rows[0]!.id, { ...values, name: "First, renamed" })).status).toBe(200);
    // Deleting is how a merchant gets back under the limit; then the next one opens.
    expect(
      (await client.postJson(`/admin/campaigns/${rows[1]!.id}?${CAMPAIGN}`, { intent: "delete" }, origin())).status,
    ).toBe(204);
    expect(await (await client.get(`/admin/campaigns/${rows[3]!.id}?${CAMPAIGN}`)).json()).toMatchObject({
      readOnly: false,
    });
  });
});

describe("the affiliate limit", () => {
  it("keeps over-limit affiliates readable; their edits, approvals and bulk changes answer 403", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    const campaign = await buildCampaign(shop.id);
    const rows = await affiliatesInOrder(shop.id, campaign.id, 52);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    const client = await login(shop.id);
    const newest = rows[51]!;

    const list = (await (await client.get(`/admin/affiliates?${AFFILIATES}`)).json()) as {
      readOnly: { count: number; names: string[] };
    };
    expect(list.readOnly).toMatchObject({ count: 2, names: ["a51@example.com", "a52@example.com"] });

    const detail = await client.get(`/admin/affiliates/${newest.id}?${AFFILIATE}`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ affiliate: { email: "a52@example.com" }, readOnly: true });

    const approve = await client.postForm(
      `/admin/affiliates/${newest.id}?${AFFILIATE}`,
      { intent: "approve" },
      origin(),
    );
    expect(approve.status).toBe(403);
    const update = await client.postForm(
      `/admin/affiliates/${newest.id}?${AFFILIATE}`,
      { intent: "update", email: newest.email, first_name: "Changed", last_name: "X", campaign_id: campaign.id },
      origin(),
    );
    expect(update.status).toBe(403);
    const bulk = await client.postForm(
      `/admin/affiliates?${AFFILIATES}`,
      { intent: "status", action: "deactivate", ids: [rows[0]!.id, newest.id].join(",") },
      origin(),
    );
    expect(bulk.status).toBe(403);
    const after = await getDb().affiliate.findUniqueOrThrow({ where: { id: newest.id } });
    expect(after).toMatchObject({ status: "pending", firstName: "A" });
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: rows[0]!.id } })).status).toBe("approved");

    // The oldest stay editable.
    const ok = await client.postForm(
      `/admin/affiliates/${rows[0]!.id}?${AFFILIATE}`,
      { intent: "deactivate" },
      origin(),
    );
    expect(ok.status).toBe(200);
  });

  it("refuses a CSV import larger than the room left and imports nothing", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const campaign = await getDb().campaign.create({ data: { shopId: shop.id, name: "Main", isDefault: true } });
    await affiliatesInOrder(shop.id, campaign.id, 49);
    const client = await login(shop.id);
    const csv = "email,first_name,last_name\nx1@example.com,X,One\nx2@example.com,X,Two\n";
    const form = new FormData();
    form.set("intent", "import");
    form.set("file", new File([csv], "affiliates.csv", { type: "text/csv" }));
    const res = await client.request(`/admin/affiliates?${AFFILIATES}`, {
      method: "POST",
      body: form,
      headers: origin(),
    });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("adds 2 affiliates but your plan has room for 1 more");
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(49);
  });
});

describe("features inside forms", () => {
  it("MLM: campaign levels need a plan with MLM; without levels the campaign saves", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const [campaign] = await campaignsInOrder(shop.id, 1);
    const client = await login(shop.id);
    const base = { ...emptyCampaignForm(false), name: "Levels", status: "active" };
    const withLevels = { ...base, levels: [{ key: "l2", basis: "percent_of_sale", rate: "2" }] };
    const refused = await saveCampaign(client, campaign!.id, withLevels);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Growth plan");
    expect(await getDb().campaignLevel.count({ where: { campaignId: campaign!.id } })).toBe(0);
    expect((await saveCampaign(client, campaign!.id, base)).status).toBe(200);

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    expect((await saveCampaign(client, campaign!.id, withLevels)).status).toBe(200);
    expect(await getDb().campaignLevel.count({ where: { campaignId: campaign!.id } })).toBe(1);
  });

  it("MLM: the campaign page offers no 'Add level' on a plan without MLM, and says why", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const [campaign] = await campaignsInOrder(shop.id, 1);
    const client = await login(shop.id);
    // Polaris renders a disabled button with aria-disabled.
    const addLevel = /<button[^>]*aria-disabled="true"[^>]*>(?:(?!<\/button>).)*Add level/s;
    const free = await (await client.get(`/admin/campaigns/${campaign!.id}`)).text();
    expect(free).toContain("Multi-level marketing needs a higher plan.");
    expect(free).toMatch(addLevel);
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    const growth = await (await client.get(`/admin/campaigns/${campaign!.id}`)).text();
    expect(growth).not.toContain("Multi-level marketing needs a higher plan.");
    expect(growth).not.toMatch(addLevel);
  });

  it("auto-tier: the settings tab and its save answer the upgrade prompt on a plan without it", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const client = await login(shop.id);
    const page = await client.get(`/admin/settings/autotier?${data("routes/$role.settings.autotier")}`);
    expect(page.status).toBe(403);
    expect(await page.json()).toMatchObject({ upgrade: { feature: "autoTier", plan: "growth" } });
    const save = await client.postJson(
      `/admin/settings/autotier?${data("routes/$role.settings.autotier")}`,
      { intent: "save_autotier", enabled: false, allowDemotion: false, tiers: [] },
      origin(),
    );
    expect(save.status).toBe(403);
    expect(await getDb().tierRule.count({ where: { shopId: shop.id } })).toBe(0);

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    expect((await client.get(`/admin/settings/autotier?${data("routes/$role.settings.autotier")}`)).status).toBe(200);
  });

  it("custom domain: Settings › Marketings refuses the domain below Pro and says so", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    const client = await login(shop.id);
    const route = data("routes/$role.settings.marketings");
    const page = await client.get(`/admin/settings/marketings?${route}`);
    expect(await page.json()).toMatchObject({ customDomain: false });
    const res = await client.postForm(
      `/admin/settings/marketings?${route}`,
      { intent: "save", portalDomain: "affiliates.example.com" },
      origin(),
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("Pro plan");
    // The old location (Portals) refuses it too.
    const old = await client.postForm(
      `/admin/portals?index&${data("routes/$role.portals._index")}`,
      { portalDomain: "affiliates.example.com" },
      origin(),
    );
    expect(old.status).toBe(403);
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row.portalDomain ?? row.portalDomainPending).toBeNull();
  });

  it("PayPal payouts: the connection screen shows the upgrade prompt on the free plan", async () => {
    const shop = await buildShop({ pricingPlan: "free" });
    const client = await login(shop.id);
    const res = await client.get(`/admin/paypal/connect?${data("routes/$role.paypal.connect")}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ upgrade: { feature: "paypalPayouts", plan: "growth" } });
  });
});

// A document carries the Plans namespace only when it shows plan text (the
// upgrade prompt, a list's over-limit banner or read-only badges): the
// browser then hydrates with the text the server rendered.
describe("the Plans namespace in admin documents", () => {
  const namespaces = async (res: Response) => {
    const html = await res.text();
    const json = /<script[^>]* id="i18n-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    return { html, names: Object.keys((JSON.parse(json!) as { resources: object }).resources) };
  };

  it("comes with the upgrade prompt and an over-limit list, not with other pages", async () => {
    const shop = await buildShop({ pricingPlan: "growth" });
    const campaign = await buildCampaign(shop.id);
    await affiliatesInOrder(shop.id, campaign.id, 52);
    const client = await login(shop.id);

    const list = await namespaces(await client.get("/admin/affiliates"));
    expect(list.names).not.toContain("Plans");
    expect(list.names).toEqual(expect.arrayContaining(["Global", "TopMenu", "Affiliates"]));
    expect((await namespaces(await client.get("/admin/sales"))).names).not.toContain("Plans");

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    const over = await namespaces(await client.get("/admin/affiliates"));
    expect(over.names).toContain("Plans");
    expect(over.html).toContain("This store has 52 affiliates");
    expect((await namespaces(await client.get("/admin/campaigns"))).names).not.toContain("Plans");
    await campaignsInOrder(shop.id, 3);
    const campaigns = await namespaces(await client.get("/admin/campaigns"));
    expect(campaigns.names).toContain("Plans");
    expect(campaigns.html).toContain("This store has 4 campaigns");
    expect(campaigns.html).toContain(">Read-only<");

    const gated = await client.get("/admin/paypal/connect");
    expect(gated.status).toBe(403);
    const prompt = await namespaces(gated);
    expect(prompt.names).toContain("Plans");
    expect(prompt.html).toContain("Upgrade your plan");
    expect(prompt.html).not.toContain(">upgradeTitle<");
  });
});

describe("the activate page says what a downgrade takes away", () => {
  it("lists the campaigns and affiliates over the new limits and the features that stop, with the shop's numbers", async () => {
    const shop = await buildShop();
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "growth" } });
    const campaigns = await campaignsInOrder(shop.id, 5);
    await getDb().campaignLevel.create({ data: { campaignId: campaigns[0]!.id, level: 2, rate: 500 } });
    await affiliatesInOrder(shop.id, campaigns[0]!.id, 52);
    const client = await login(shop.id);
    const page = await client.get("/admin/plans/activate?plan_id=free");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="plan-consequences"');
    expect(html).toContain("What changes on Free");
    expect(html).toContain("2 campaigns are over the limit of 3 and become read-only");
    expect(html).toContain("2 affiliates are over the limit of 50 and become read-only");
    expect(html).toContain("Multi-level commissions stop: 1 campaigns pay upline levels");
    expect(html).toContain("PayPal payouts stop");
    expect(html).toContain("Automatic tier moves stop");
    expect(html).toContain("Nothing is deleted");

    // An upgrade takes nothing away: no list.
    const upgrade = await (await client.get("/admin/plans/activate?plan_id=pro")).text();
    expect(upgrade).not.toContain('id="plan-consequences"');
  });
});
