import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { AdminClient, logInAs, remixRedirect } from "../support/admin-client";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The admin's campaign screens over real HTTP against the built app: their
// loaders and actions, validation with field messages, one default campaign,
// tenant scoping and staff permissions.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const LIST = "routes/$role.campaigns._index";
const DETAIL = "routes/$role.campaigns.$id";

const form = (over: Record<string, unknown> = {}) => ({
  name: "Summer partners",
  status: "active",
  is_default: false,
  commission_type: "percent",
  commission_value: "12.5",
  new_customer_enabled: true,
  new_customer_value: "15",
  cookie_days: "45",
  auto_approve_affiliates: true,
  auto_approve_orders: true,
  approval_hold_days: "14",
  lifetime_customer_link: false,
  levels: [
    { key: "a", basis: "percent_of_sale", rate: "5" },
    { key: "b", basis: "percent_of_commission", rate: "2.25" },
  ],
  rules: [
    { key: "r", target_type: "product", target: "123", kind: "rate", commission_type: "flat_item", value: "3.50" },
    {
      key: "x",
      target_type: "collection",
      target: "gid://shopify/Collection/9",
      kind: "exclude",
      commission_type: "percent",
      value: "",
    },
  ],
  coupon: { enabled: true, discount_type: "percentage", discount_value: "10", prefix: "sum-", once_per_customer: true },
  ...over,
});

async function adminOf(shopId?: string): Promise<{ admin: AdminClient; shopId: string }> {
  const id = shopId ?? (await buildShop()).id;
  const user = await buildUser(id, { email: `admin-${id}@example.com` });
  return { admin: await logInAs(server.url, "admin", user.email), shopId: id };
}

async function create(admin: AdminClient, over: Record<string, unknown> = {}) {
  const res = await admin.act("/admin/campaigns/new", DETAIL, { intent: "save", values: form(over) });
  expect(res.status, await res.clone().text()).toBe(204);
  const to = remixRedirect(res)!;
  expect(to).toMatch(/^\/admin\/campaigns\/[A-Za-z0-9_-]+\?created=1$/);
  return to.split("/")[3]!.split("?")[0]!;
}

describe("campaign detail", () => {
  it("creates a campaign with two MLM levels, rules and coupon settings, then edits, duplicates and deletes it", async () => {
    const { admin, shopId } = await adminOf();
    const id = await create(admin);
    const row = await getDb().campaign.findUniqueOrThrow({
      where: { id },
      include: { levels: { orderBy: { level: "asc" } }, rules: true },
    });
    expect(row).toMatchObject({
      shopId,
      name: "Summer partners",
      status: "active",
      isDefault: true, // the shop had no default campaign
      commissionType: "percent",
      commissionValue: 1250,
      newCustomerValue: 1500,
      cookieDays: 45,
      autoApproveAffiliates: true,
      autoApproveOrders: true,
      approvalHoldDays: 14,
      couponEnabled: true,
      couponDiscountType: "percentage",
      couponDiscountValue: 1000,
      couponPrefix: "SUM-",
    });
    expect(row.levels.map((l) => [l.level, l.basis, l.rate])).toEqual([
      [2, "percent_of_sale", 500],
      [3, "percent_of_commission", 225],
    ]);
    expect(row.rules).toHaveLength(2);

    const loaded = await (await admin.load(`/admin/campaigns/${id}`, DETAIL)).json();
    expect(loaded.campaign).toMatchObject({ id, commission_value: 1250, levels: [{ level: 2 }, { level: 3 }] });
    expect(loaded.affiliateCount).toBe(0);

    const edit = await admin.act(`/admin/campaigns/${id}`, DETAIL, {
      intent: "save",
      values: form({
        name: "Summer 2",
        is_default: true, // the shop's first campaign is its default
        commission_type: "flat_order",
        commission_value: "7.50",
        levels: [{ key: "a", basis: "percent_of_sale", rate: "1" }],
      }),
    });
    expect(edit.status).toBe(200);
    expect((await edit.json()).campaign).toMatchObject({
      name: "Summer 2",
      commission_type: "flat_order",
      commission_value: 750,
      levels: [{ level: 2, rate: 100 }],
    });

    const dup = await admin.act(`/admin/campaigns/${id}`, DETAIL, { intent: "duplicate" });
    const copyId = remixRedirect(dup)!.split("/")[3]!.split("?")[0]!;
    const copy = await getDb().campaign.findUniqueOrThrow({
      where: { id: copyId },
      include: { levels: true, rules: true },
    });
    expect(copy).toMatchObject({
      name: "Copy of Summer 2",
      status: "draft",
      isDefault: false,
      commissionValue: 750,
      couponPrefix: "SUM-",
    });
    expect(copy.levels).toHaveLength(1);
    expect(copy.rules).toHaveLength(2);

    const del = await admin.act(`/admin/campaigns/${copyId}`, DETAIL, { intent: "delete" });
    expect(remixRedirect(del)).toBe("/admin/campaigns?deleted=1");
    expect(await getDb().campaign.findUnique({ where: { id: copyId } })).toBeNull();
    expect(await getDb().campaignLevel.count({ where: { campaignId: copyId } })).toBe(0);
  });

  it("answers invalid input with 422 and a message per field, and stores nothing", async () => {
    const { admin } = await adminOf();
    const res = await admin.act("/admin/campaigns/new", DETAIL, {
      intent: "save",
      values: form({
        name: " ",
        commission_value: "100.5",
        cookie_days: "0",
        levels: [
          { key: "a", basis: "percent_of_sale", rate: "5" },
          { key: "b", basis: "percent_of_sale", rate: "1.234" },
        ],
        rules: [
          { key: "r", target_type: "product", target: "shoes", kind: "rate", commission_type: "percent", value: "5" },
        ],
        coupon: {
          enabled: true,
          discount_type: "fixed_amount",
          discount_value: "0",
          prefix: "",
          once_per_customer: true,
        },
      }),
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.fields).toEqual({
      name: "Enter a name",
      commission_value: "Use at most 100 %",
      cookie_days: "Use at least 1",
      "levels.1.rate": "Use at most 2 decimals",
      "rules.0.target_gid": "Use a gid://shopify/Product/<number> id",
      "coupon.discount_value": "Enter a discount above 0",
    });
    expect(await getDb().campaign.count()).toBe(0);

    const broken = await admin.http.request(`/admin/campaigns/new?_data=${encodeURIComponent(DETAIL)}`, {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    const unknown = await admin.act("/admin/campaigns/new", DETAIL, { intent: "launch" });
    expect(unknown.status).toBe(422);
    const shapeless = await admin.act("/admin/campaigns/new", DETAIL, { intent: "save", values: { name: 5 } });
    expect(shapeless.status).toBe(422);
    expect(await getDb().campaign.count()).toBe(0);
  });

  it("keeps exactly one default campaign, which cannot be unset or deleted", async () => {
    const { admin, shopId } = await adminOf();
    const defaults = async () =>
      (await getDb().campaign.findMany({ where: { shopId, isDefault: true } })).map((c) => c.id);
    expect((await (await admin.load("/admin/campaigns/new", DETAIL)).json()).hasDefault).toBe(false);
    // The shop's first campaign becomes its default even when the box was not ticked.
    const first = await create(admin, { name: "First", is_default: false });
    expect(await defaults()).toEqual([first]);
    await create(admin, { name: "Other", is_default: false });
    expect(await defaults()).toEqual([first]);
    const second = await create(admin, { name: "Second", is_default: true });
    expect(await defaults()).toEqual([second]);

    const unset = await admin.act(`/admin/campaigns/${second}`, DETAIL, {
      intent: "save",
      values: form({ name: "Second", is_default: false }),
    });
    expect(unset.status).toBe(422);
    expect((await unset.json()).error.fields.is_default).toContain("make another campaign the default");

    const del = await admin.act(`/admin/campaigns/${second}`, DETAIL, { intent: "delete" });
    expect(del.status).toBe(409);
    expect((await del.json()).error.message).toBe(
      "“Second” is the default campaign and cannot be deleted. Make another campaign the default first.",
    );
    await admin.act(`/admin/campaigns/${first}`, DETAIL, {
      intent: "save",
      values: form({ name: "First", is_default: true }),
    });
    expect(await defaults()).toEqual([first]);
    // A new form starts as the default only while the shop has none.
    expect((await (await admin.load("/admin/campaigns/new", DETAIL)).json()).hasDefault).toBe(true);
  });

  it("refuses to delete a campaign while affiliates are on it, saying so", async () => {
    const { admin, shopId } = await adminOf();
    await create(admin, { name: "Main", is_default: true });
    const id = await create(admin);
    await buildAffiliate(shopId, id);
    await buildAffiliate(shopId, id);
    const res = await admin.act(`/admin/campaigns/${id}`, DETAIL, { intent: "delete" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toBe(
      "“Summer partners” cannot be deleted: 2 affiliates are on it. Move them to another campaign first.",
    );
    expect(await getDb().campaign.count({ where: { id } })).toBe(1);
    expect((await (await admin.load(`/admin/campaigns/${id}`, DETAIL)).json()).affiliateCount).toBe(2);
  });
});

describe("campaign list time zone", () => {
  it("shows creation dates in the shop's zone and says which", async () => {
    const { admin, shopId } = await adminOf();
    await getDb().shop.update({ where: { id: shopId }, data: { timezone: "Asia/Tokyo" } });
    await getDb().campaign.create({
      data: { shopId, name: "Late", status: "active", createdAt: new Date("2025-12-31T16:00:00Z") },
    });
    const html = await (await admin.document("/admin/campaigns")).text();
    expect(html).toContain("Times in Asia/Tokyo");
    expect(html).toContain("Jan 1, 2026");
  });
});

describe("campaign list", () => {
  it("pages on the server, newest first, and filters by state and name", async () => {
    const { admin, shopId } = await adminOf();
    const start = Date.now() - 100_000;
    for (let i = 0; i < 35; i++) {
      await getDb().campaign.create({
        data: {
          shopId,
          name: `Campaign ${String(i).padStart(2, "0")}`,
          status: i % 3 === 0 ? "draft" : "active",
          createdAt: new Date(start + i * 1000),
        },
      });
    }
    const first = await (await admin.load("/admin/campaigns", LIST)).json();
    expect(first.campaigns).toHaveLength(25);
    expect(first.campaigns[0].name).toBe("Campaign 34");
    expect(first.before).toBeNull();
    const second = await (await admin.load(`/admin/campaigns?after=${first.after}`, LIST)).json();
    expect(second.campaigns.map((c: { name: string }) => c.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Campaign ${String(9 - i).padStart(2, "0")}`),
    );
    expect(second.after).toBeNull();
    const back = await (await admin.load(`/admin/campaigns?before=${second.before}`, LIST)).json();
    expect(back.campaigns.map((c: { id: string }) => c.id)).toEqual(first.campaigns.map((c: { id: string }) => c.id));
    expect(back.before).toBeNull();

    const drafts = await (await admin.load("/admin/campaigns?status=draft", LIST)).json();
    expect(drafts.campaigns).toHaveLength(12);
    const named = await (await admin.load("/admin/campaigns?q=campaign%2005", LIST)).json();
    expect(named.campaigns.map((c: { name: string }) => c.name)).toEqual(["Campaign 05"]);
    expect((await admin.load("/admin/campaigns?after=not-a-cursor", LIST)).status).toBe(404);
  });

  it("counts the affiliates of each campaign and renders the page", async () => {
    const { admin, shopId } = await adminOf();
    const campaign = await buildCampaign(shopId, { name: "With people" });
    await buildAffiliate(shopId, campaign.id);
    const data = await (await admin.load("/admin/campaigns", LIST)).json();
    expect(data.campaigns[0]).toMatchObject({ name: "With people", affiliate_count: 1, level_count: 0 });
    // Only what the list shows goes to the page (no rules, coupon or levels).
    expect(Object.keys(data.campaigns[0]).sort()).toEqual([
      "affiliate_count",
      "commission_type",
      "commission_value",
      "created_at",
      "id",
      "is_default",
      "level_count",
      "name",
      "status",
    ]);
    const page = await admin.document("/admin/campaigns");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("With people");
  });
});

describe("campaign list bulk action", () => {
  it("sets the state of the selected campaigns of this shop only, and refuses malformed requests", async () => {
    const { admin, shopId } = await adminOf();
    const mine = [await buildCampaign(shopId, { status: "active" }), await buildCampaign(shopId, { status: "draft" })];
    const theirs = await buildCampaign((await buildShop()).id, { status: "active" });
    const res = await admin.act("/admin/campaigns?index", LIST, {
      intent: "set_status",
      status: "private",
      ids: [...mine.map((c) => c.id), theirs.id],
    });
    expect(res.status).toBe(200);
    expect((await res.json()).result).toEqual({ changed: 2, status: "private" });
    for (const c of mine)
      expect((await getDb().campaign.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("private");
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("active");

    const bad = await admin.act("/admin/campaigns?index", LIST, { intent: "set_status", status: "archived", ids: [] });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).error.fields).sort()).toEqual(["ids", "status"]);
  });
});

describe("tenant scoping and permissions", () => {
  it("answers 404 for another shop's campaign on every loader and action, changing nothing", async () => {
    const { admin } = await adminOf();
    const other = await buildShop();
    const theirs = await buildCampaign(other.id, { name: "Theirs" });
    expect((await admin.load(`/admin/campaigns/${theirs.id}`, DETAIL)).status).toBe(404);
    expect((await admin.document(`/admin/campaigns/${theirs.id}`)).status).toBe(404);
    for (const body of [
      { intent: "save", values: form({ name: "Hijacked" }) },
      { intent: "duplicate" },
      { intent: "delete" },
    ]) {
      const res = await admin.act(`/admin/campaigns/${theirs.id}`, DETAIL, body);
      expect(res.status, body.intent).toBe(404);
      expect(await res.text()).not.toContain("Theirs");
    }
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: theirs.id } })).name).toBe("Theirs");
    expect(await getDb().campaign.count({ where: { shopId: other.id } })).toBe(1);
    expect((await admin.load("/admin/campaigns/..%2f..%2fx", DETAIL)).status).toBe(404);
    const list = await (await admin.load("/admin/campaigns", LIST)).json();
    expect(list.campaigns).toEqual([]);
  });

  it("gives staff without the campaigns permission 403 with no data on every loader and action", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id, { name: "Secret terms" });
    await buildUser(shop.id, { role: "staff", email: "sales-only@example.com", permissions: ["sales"] });
    const staff = await logInAs(server.url, "staff", "sales-only@example.com");
    const loads = [
      staff.load("/staff/campaigns", LIST),
      staff.load(`/staff/campaigns/${campaign.id}`, DETAIL),
      staff.load("/staff/campaigns/new", DETAIL),
      staff.document("/staff/campaigns"),
      staff.document(`/staff/campaigns/${campaign.id}`),
    ];
    for (const res of await Promise.all(loads)) {
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("Secret terms");
    }
    for (const [path, body] of [
      ["/staff/campaigns/new", { intent: "save", values: form() }],
      [`/staff/campaigns/${campaign.id}`, { intent: "save", values: form({ name: "Changed" }) }],
      [`/staff/campaigns/${campaign.id}`, { intent: "duplicate" }],
      [`/staff/campaigns/${campaign.id}`, { intent: "delete" }],
      ["/staff/campaigns?index", { intent: "set_status", status: "draft", ids: [campaign.id] }],
    ] as const) {
      const res = await staff.act(path, path.includes("?index") ? LIST : DETAIL, body);
      expect(res.status, `${path} ${body.intent}`).toBe(403);
      expect(await res.text()).not.toContain("Secret terms");
    }
    expect(await getDb().campaign.findMany({ where: { shopId: shop.id }, select: { name: true } })).toEqual([
      { name: "Secret terms" },
    ]);

    // With the permission, the same staff member may use the screens.
    await buildUser(shop.id, { role: "staff", email: "campaigns@example.com", permissions: ["campaigns"] });
    const allowed = await logInAs(server.url, "staff", "campaigns@example.com");
    expect((await allowed.load(`/staff/campaigns/${campaign.id}`, DETAIL)).status).toBe(200);
  });
});
