import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { affiliateSchema, campaignSchema, clickSchema, saleSchema, shopSchema } from "~/models/api/schemas";
import {
  ApiClient,
  buildApiKey,
  buildClick,
  buildCommission,
  buildOrder,
  payLinesByHand,
} from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// The REST API /api/v1 over real HTTP against the built app.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

async function apiFor(shop?: Awaited<ReturnType<typeof buildShop>>) {
  const theShop = shop ?? (await buildShop());
  const { key, row } = await buildApiKey(theShop.id);
  return { shop: theShop, api: new ApiClient(server.url, key), key, keyRow: row };
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = await res.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  return body.error as { code: string; message: string; fields?: Record<string, string> };
}

const RULE = {
  target_type: "product",
  target_gid: "gid://shopify/Product/111",
  kind: "rate",
  commission_type: "percent",
  value: 1500,
};

describe("authentication", () => {
  it("answers 401 JSON without a key, with an unknown key and with a revoked key", async () => {
    const shop = await buildShop();
    const revoked = await buildApiKey(shop.id, { revokedAt: new Date() });
    const cases = [
      new ApiClient(server.url),
      new ApiClient(server.url, "sk_unknown_key"),
      new ApiClient(server.url, revoked.key),
    ];
    for (const client of cases) {
      const res = await client.get("/api/v1/shop");
      const error = await expectError(res, 401, "unauthenticated");
      expect(error.message.length).toBeGreaterThan(0);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
    const basic = await new ApiClient(server.url).request("/api/v1/campaigns", {
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    await expectError(basic, 401, "unauthenticated");
  });

  it("returns the key's shop and records use at most once a minute", async () => {
    const { api, shop, keyRow } = await apiFor();
    const res = await api.get("/api/v1/shop");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(shopSchema.strict().parse(body)).toEqual({
      id: shop.id,
      domain: shop.domain,
      name: shop.name,
      url: shop.url,
      currency: "USD",
      money_format: "${{amount}}",
      timezone: "UTC",
      referral_param: "ref",
      attribution_model: "last_click",
      auto_apply_discount: false,
    });
    // The Promote link setting "apply the affiliate's discount through their short link" (ADR 053).
    await getDb().shop.update({ where: { id: shop.id }, data: { autoApplyDiscount: true } });
    expect((await (await api.get("/api/v1/shop")).json()).auto_apply_discount).toBe(true);
    const first = (await getDb().apiKey.findUniqueOrThrow({ where: { id: keyRow.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await api.get("/api/v1/shop");
    expect((await getDb().apiKey.findUniqueOrThrow({ where: { id: keyRow.id } })).lastUsedAt).toEqual(first);
    const old = new Date(Date.now() - 120_000);
    await getDb().apiKey.update({ where: { id: keyRow.id }, data: { lastUsedAt: old } });
    await api.get("/api/v1/shop");
    const touched = (await getDb().apiKey.findUniqueOrThrow({ where: { id: keyRow.id } })).lastUsedAt!;
    expect(touched.getTime()).toBeGreaterThan(old.getTime() + 60_000);
  });
});

describe("routing and errors", () => {
  it("answers unknown paths with 404 JSON and wrong methods with 405 JSON", async () => {
    const { api } = await apiFor();
    for (const path of ["/api/v1", "/api/v1/nope", "/api/v1/campaigns/abc/def", "/api/v1/sales/abc/refund"]) {
      await expectError(await api.get(path), 404, "not_found");
      await expectError(await api.post(path, {}), 404, "not_found");
    }
    await expectError(await new ApiClient(server.url).get("/api/v1/nope"), 404, "not_found");
    const cases: [string, string, string][] = [
      ["DELETE", "/api/v1/campaigns", "GET, POST"],
      ["PUT", "/api/v1/campaigns/abc", "GET, PATCH"],
      ["POST", "/api/v1/shop", "GET"],
      ["PATCH", "/api/v1/sales", "GET"],
      ["GET", "/api/v1/sales/abc/approve", "POST"],
      ["POST", "/api/v1/clicks", "GET"],
      ["POST", "/api/v1/openapi.json", "GET"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await api.request(path, {
        method,
        body: method === "GET" ? undefined : "{}",
        headers: { "content-type": "application/json" },
      });
      await expectError(res, 405, "method_not_allowed");
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
    }
  });

  it("answers ids that cannot be ids with 404, never 500", async () => {
    const { api } = await apiFor();
    const ids = ["a.b", "%E2%9C%93", "x".repeat(65), "%27%20OR%201%3D1", "a%20b", "%2e%2e"];
    for (const id of ids) {
      for (const base of ["campaigns", "affiliates", "sales"]) {
        const res = await api.get(`/api/v1/${base}/${id}`);
        expect(res.status, `${base}/${id}`).toBe(404);
      }
      expect((await api.patch(`/api/v1/campaigns/${id}`, { name: "x" })).status).toBe(404);
      expect((await api.post(`/api/v1/sales/${id}/approve`)).status).toBe(404);
    }
  });

  it("answers malformed bodies with 400 and bad query parameters with 422", async () => {
    const { api } = await apiFor();
    const broken = await expectError(await api.post("/api/v1/campaigns", "{not json"), 400, "bad_request");
    expect(broken.message).toBe("The request body is not valid JSON.");
    const form = await api.request("/api/v1/campaigns", {
      method: "POST",
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expectError(form, 400, "bad_request");
    await expectError(await api.post("/api/v1/affiliates", "[1,2]"), 422, "validation_failed");
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["cursor=!!!", "cursor"],
      ["cursor=" + Buffer.from("{}").toString("base64url"), "cursor"],
      ["cursor=" + Buffer.from('{"t":"yesterday","i":"x"}').toString("base64url"), "cursor"],
    ]) {
      for (const base of ["campaigns", "affiliates", "sales", "clicks"]) {
        const error = await expectError(await api.get(`/api/v1/${base}?${query}`), 422, "validation_failed");
        expect(error.fields?.[field], `${base}?${query}`).toBeTruthy();
      }
    }
    const since = await expectError(await api.get("/api/v1/sales?since=last-week"), 422, "validation_failed");
    expect(since.fields?.since).toContain("ISO 8601");
    const status = await expectError(await api.get("/api/v1/sales?status=bogus"), 422, "validation_failed");
    expect(status.fields?.status).toBeTruthy();
    const affiliate = await expectError(await api.get("/api/v1/clicks?affiliate_id=a.b"), 422, "validation_failed");
    expect(affiliate.fields?.affiliate_id).toBeTruthy();
  });
});

describe("tenant isolation", () => {
  it("never shows or changes another shop's rows", async () => {
    const { api, shop } = await apiFor();
    const other = await buildShop();
    const otherCampaign = await buildCampaign(other.id, { name: "Theirs" });
    const otherAffiliate = await buildAffiliate(other.id, otherCampaign.id);
    const otherOrder = await buildOrder(other.id, { affiliateId: otherAffiliate.id });
    await buildCommission(other.id, otherOrder.id, otherAffiliate.id);
    await buildClick(other.id, otherAffiliate.id);
    const mine = await buildCampaign(shop.id, { name: "Mine" });
    const myAffiliate = await buildAffiliate(shop.id, mine.id);
    await buildOrder(shop.id, { affiliateId: myAffiliate.id });
    await buildClick(shop.id, myAffiliate.id);

    await expectError(await api.get(`/api/v1/campaigns/${otherCampaign.id}`), 404, "not_found");
    await expectError(await api.get(`/api/v1/affiliates/${otherAffiliate.id}`), 404, "not_found");
    await expectError(await api.get(`/api/v1/sales/${otherOrder.id}`), 404, "not_found");
    await expectError(await api.patch(`/api/v1/campaigns/${otherCampaign.id}`, { name: "Hijacked" }), 404, "not_found");
    await expectError(
      await api.patch(`/api/v1/affiliates/${otherAffiliate.id}`, { status: "denied" }),
      404,
      "not_found",
    );
    await expectError(await api.post(`/api/v1/sales/${otherOrder.id}/approve`), 404, "not_found");
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: otherCampaign.id } })).name).toBe("Theirs");
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: otherAffiliate.id } })).status).toBe("approved");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: otherOrder.id } })).status).toBe("pending");

    for (const base of ["campaigns", "affiliates", "sales", "clicks"]) {
      const body = await (await api.get(`/api/v1/${base}`)).json();
      expect(body.data, base).toHaveLength(1);
    }
    expect((await (await api.get(`/api/v1/sales?affiliate_id=${otherAffiliate.id}`)).json()).data).toEqual([]);
    expect((await (await api.get(`/api/v1/clicks?affiliate_id=${otherAffiliate.id}`)).json()).data).toEqual([]);

    // Another shop's ids in a body are refused like unknown ones.
    const create = await api.post("/api/v1/affiliates", {
      email: "x@example.com",
      first_name: "X",
      campaign_id: otherCampaign.id,
    });
    expect((await expectError(create, 422, "validation_failed")).fields?.campaign_id).toContain("No campaign");
    const upline = await api.patch(`/api/v1/affiliates/${myAffiliate.id}`, { parent_id: otherAffiliate.id });
    expect((await expectError(upline, 422, "validation_failed")).fields?.parent_id).toContain("No affiliate");
  });
});

describe("campaigns", () => {
  it("creates, reads and patches a campaign with levels and rules", async () => {
    const { api, shop } = await apiFor();
    const res = await api.post("/api/v1/campaigns", {
      name: "  Summer  ",
      status: "active",
      commission_type: "percent",
      commission_value: 1250,
      new_customer_value: 2000,
      cookie_days: 60,
      approval_hold_days: 14,
      levels: [
        { level: 3, basis: "percent_of_commission", rate: 500 },
        { level: 2, rate: 1000 },
      ],
      rules: [
        RULE,
        { target_type: "collection", target_gid: "gid://shopify/Collection/9", kind: "exclude", value: 700 },
      ],
    });
    expect(res.status).toBe(201);
    const campaign = campaignSchema.strict().parse(await res.json());
    expect(res.headers.get("location")).toBe(`/api/v1/campaigns/${campaign.id}`);
    expect(campaign).toMatchObject({
      name: "Summer",
      status: "active",
      is_default: false,
      commission_type: "percent",
      commission_value: 1250,
      new_customer_value: 2000,
      cookie_days: 60,
      auto_approve_affiliates: false,
      auto_approve_orders: false,
      approval_hold_days: 14,
      lifetime_customer_link: false,
      levels: [
        { level: 2, basis: "percent_of_sale", rate: 1000 },
        { level: 3, basis: "percent_of_commission", rate: 500 },
      ],
      rules: [
        {
          target_type: "collection",
          target_gid: "gid://shopify/Collection/9",
          kind: "exclude",
          commission_type: "percent",
          value: 0,
        },
        RULE,
      ],
    });
    const row = await getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row.shopId).toBe(shop.id);

    const get = await api.get(`/api/v1/campaigns/${campaign.id}`);
    expect(await get.json()).toEqual(campaign);

    const patch = await api.patch(`/api/v1/campaigns/${campaign.id}`, {
      name: "Summer 2",
      commission_type: "flat_order",
      commission_value: 500,
      new_customer_value: null,
      levels: [{ level: 2, basis: "percent_of_commission", rate: 2500 }],
      rules: [],
    });
    expect(patch.status).toBe(200);
    const patched = campaignSchema.strict().parse(await patch.json());
    expect(patched).toMatchObject({
      name: "Summer 2",
      commission_type: "flat_order",
      commission_value: 500,
      new_customer_value: null,
      cookie_days: 60,
      levels: [{ level: 2, basis: "percent_of_commission", rate: 2500 }],
      rules: [],
    });
    expect(await getDb().campaignLevel.count({ where: { campaignId: campaign.id } })).toBe(1);
    expect(await getDb().commissionRule.count({ where: { campaignId: campaign.id } })).toBe(0);

    // Fields not sent stay as they are, levels and rules included.
    const rename = await (await api.patch(`/api/v1/campaigns/${campaign.id}`, { name: "Summer 3" })).json();
    expect(rename.levels).toEqual(patched.levels);
    expect(rename.commission_value).toBe(500);
  });

  it("keeps one default campaign per shop", async () => {
    const { api, shop } = await apiFor();
    const other = await buildShop();
    const theirs = await getDb().campaign.create({
      data: { shopId: other.id, name: "Other default", isDefault: true },
    });
    const first = await (await api.post("/api/v1/campaigns", { name: "First", is_default: true })).json();
    const second = await (await api.post("/api/v1/campaigns", { name: "Second", is_default: true })).json();
    const defaults = await getDb().campaign.findMany({ where: { shopId: shop.id, isDefault: true } });
    expect(defaults.map((c) => c.id)).toEqual([second.id]);
    await api.patch(`/api/v1/campaigns/${first.id}`, { is_default: true });
    expect((await getDb().campaign.findMany({ where: { shopId: shop.id, isDefault: true } })).map((c) => c.id)).toEqual(
      [first.id],
    );
    expect((await getDb().campaign.findUniqueOrThrow({ where: { id: theirs.id } })).isDefault).toBe(true);
  });

  it.each([
    ["a percent over 100 %", { commission_value: 10_001 }, "commission_value"],
    ["a new-customer percent over 100 %", { new_customer_value: 20_000 }, "new_customer_value"],
    ["zero cookie days", { cookie_days: 0 }, "cookie_days"],
    ["a year and a day of cookies", { cookie_days: 366 }, "cookie_days"],
    ["a negative hold", { approval_hold_days: -1 }, "approval_hold_days"],
    ["an unknown status", { status: "archived" }, "status"],
    ["an unknown commission type", { commission_type: "tiered" }, "commission_type"],
    ["a fraction", { commission_value: 10.5 }, "commission_value"],
    [
      "a level twice",
      {
        levels: [
          { level: 2, rate: 1 },
          { level: 2, rate: 2 },
        ],
      },
      "levels.1.level",
    ],
    ["level 1", { levels: [{ level: 1, rate: 1 }] }, "levels.0.level"],
    ["level 11", { levels: [{ level: 11, rate: 1 }] }, "levels.0.level"],
    ["a level rate over 100 %", { levels: [{ level: 2, rate: 10_001 }] }, "levels.0.rate"],
    [
      "a rule gid of the wrong type",
      { rules: [{ ...RULE, target_gid: "gid://shopify/Collection/1" }] },
      "rules.0.target_gid",
    ],
    ["a rule percent over 100 %", { rules: [{ ...RULE, value: 10_001 }] }, "rules.0.value"],
    ["a rule target twice", { rules: [RULE, RULE] }, "rules.1.target_gid"],
    ["an unknown field", { colour: "red" }, "_"],
    ["a blank name", { name: "   " }, "name"],
  ])("refuses %s with 422 and stores nothing", async (_label, fields, field) => {
    const { api } = await apiFor();
    const error = await expectError(
      await api.post("/api/v1/campaigns", { name: "Valid", ...fields }),
      422,
      "validation_failed",
    );
    expect(error.fields?.[field], JSON.stringify(error.fields)).toBeTruthy();
    expect(await getDb().campaign.count()).toBe(0);
    expect(await getDb().campaignLevel.count()).toBe(0);
  });

  it("validates a patch against the stored values and changes nothing when refused", async () => {
    const { api, shop } = await apiFor();
    const created = await (
      await api.post("/api/v1/campaigns", { name: "Percent", levels: [{ level: 2, rate: 100 }], rules: [RULE] })
    ).json();
    const before = await getDb().campaign.findUniqueOrThrow({
      where: { id: created.id },
      include: { levels: true, rules: true },
    });
    const other = await (await api.post("/api/v1/campaigns", { name: "Default", is_default: true })).json();
    // The stored type is percent: 20000 would be 200 %.
    const tooHigh = await expectError(
      await api.patch(`/api/v1/campaigns/${created.id}`, { commission_value: 20_000, is_default: true, levels: [] }),
      422,
      "validation_failed",
    );
    expect(tooHigh.fields?.commission_value).toContain("10000");
    const badRule = await api.patch(`/api/v1/campaigns/${created.id}`, {
      name: "Renamed",
      rules: [{ ...RULE, target_type: "page" }],
    });
    expect((await expectError(badRule, 422, "validation_failed")).fields?.["rules.0.target_type"]).toBeTruthy();
    const after = await getDb().campaign.findUniqueOrThrow({
      where: { id: created.id },
      include: { levels: true, rules: true },
    });
    expect(after).toEqual(before);
    expect((await getDb().campaign.findMany({ where: { shopId: shop.id, isDefault: true } })).map((c) => c.id)).toEqual(
      [other.id],
    );
    // With the type changed in the same patch, the value is read as minor units.
    const flat = await api.patch(`/api/v1/campaigns/${created.id}`, {
      commission_type: "flat_item",
      commission_value: 20_000,
    });
    expect(flat.status).toBe(200);
  });

  it("lists campaigns newest first and filters by status", async () => {
    const { api, shop } = await apiFor();
    const old = await getDb().campaign.create({
      data: { shopId: shop.id, name: "Old", status: "draft", createdAt: new Date("2024-01-01T00:00:00Z") },
    });
    const recent = await buildCampaign(shop.id, { name: "Recent", status: "active" });
    const all = await (await api.get("/api/v1/campaigns")).json();
    expect(all.data.map((c: { id: string }) => c.id)).toEqual([recent.id, old.id]);
    expect(all.next_cursor).toBeNull();
    const drafts = await (await api.get("/api/v1/campaigns?status=draft")).json();
    expect(drafts.data.map((c: { id: string }) => c.id)).toEqual([old.id]);
  });
});

describe("affiliates", () => {
  it("creates an affiliate with a generated code, links and the default campaign", async () => {
    const { api, shop } = await apiFor();
    await buildCampaign(shop.id, { name: "Not default" });
    const defaultCampaign = await getDb().campaign.create({
      data: { shopId: shop.id, name: "Default", isDefault: true, autoApproveAffiliates: true },
    });
    const res = await api.post("/api/v1/affiliates", {
      email: " Jane.Doe@Example.com ",
      first_name: "Jane",
      last_name: "Doë",
    });
    expect(res.status).toBe(201);
    const jane = affiliateSchema.strict().parse(await res.json());
    expect(res.headers.get("location")).toBe(`/api/v1/affiliates/${jane.id}`);
    expect(jane).toMatchObject({
      email: "jane.doe@example.com",
      first_name: "Jane",
      last_name: "Doë",
      status: "approved",
      campaign_id: defaultCampaign.id,
      parent_id: null,
      referral_code: "JANEDOE",
      referral_link: `${process.env.SHOPIFY_APP_URL!.replace(/\/$/, "")}/r/${shop.domain.replace(".myshopify.com", "")}/JANEDOE`,
      store_link: `https://${shop.domain}/?ref=JANEDOE`,
      coupon_codes: [],
    });
    // The same name again gets the name plus digits.
    const twin = await (
      await api.post("/api/v1/affiliates", { email: "jane2@example.com", first_name: "Jane", last_name: "Doe" })
    ).json();
    expect(twin.referral_code).toMatch(/^JANEDOE\d{4,8}$/);
    // A short name is padded; a given code is upper-cased.
    const short = await (await api.post("/api/v1/affiliates", { email: "x@example.com", first_name: "X" })).json();
    expect(short.referral_code).toMatch(/^AFFX/);
    const given = await (
      await api.post("/api/v1/affiliates", {
        email: "g@example.com",
        first_name: "G",
        referral_code: "my-code_1",
        status: "pending",
      })
    ).json();
    expect(given).toMatchObject({ referral_code: "MY-CODE_1", status: "pending" });
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(4);
    expect(await (await api.get(`/api/v1/affiliates/${jane.id}`)).json()).toEqual(jane);
  });

  it("needs a campaign when the shop has no default one", async () => {
    const { api } = await apiFor();
    const error = await expectError(
      await api.post("/api/v1/affiliates", { email: "a@example.com", first_name: "A" }),
      422,
      "validation_failed",
    );
    expect(error.fields?.campaign_id).toContain("default campaign");
  });

  it("refuses a duplicate e-mail or referral code with 409 and stores nothing", async () => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const first = await (
      await api.post("/api/v1/affiliates", {
        email: "dup@example.com",
        first_name: "A",
        campaign_id: campaign.id,
        referral_code: "TAKEN",
      })
    ).json();
    const email = await expectError(
      await api.post("/api/v1/affiliates", { email: "DUP@example.com", first_name: "B", campaign_id: campaign.id }),
      409,
      "conflict",
    );
    expect(email.message).toContain("dup@example.com");
    expect(email.fields?.email).toBeTruthy();
    const code = await expectError(
      await api.post("/api/v1/affiliates", {
        email: "other@example.com",
        first_name: "B",
        campaign_id: campaign.id,
        referral_code: "taken",
      }),
      409,
      "conflict",
    );
    expect(code.fields?.referral_code).toContain("TAKEN");
    expect(await getDb().affiliate.count()).toBe(1);
    // A second affiliate may not take the first one's e-mail by PATCH either.
    const second = await (
      await api.post("/api/v1/affiliates", { email: "second@example.com", first_name: "C", campaign_id: campaign.id })
    ).json();
    await expectError(
      await api.patch(`/api/v1/affiliates/${second.id}`, { email: "dup@example.com" }),
      409,
      "conflict",
    );
    // Its own values are no conflict.
    expect(
      (await api.patch(`/api/v1/affiliates/${first.id}`, { email: "dup@example.com", referral_code: "TAKEN" })).status,
    ).toBe(200);
  });

  it.each([
    ["a bad e-mail", { email: "not-an-email" }, "email"],
    ["a short code", { referral_code: "ab" }, "referral_code"],
    ["a code with spaces", { referral_code: "my code" }, "referral_code"],
    ["a long code", { referral_code: "x".repeat(33) }, "referral_code"],
    ["an unknown status", { status: "vip" }, "status"],
    ["a short coupon", { coupon_codes: ["ab"] }, "coupon_codes.0"],
    ["a long coupon", { coupon_codes: ["x".repeat(65)] }, "coupon_codes.0"],
    ["a coupon twice", { coupon_codes: ["SAVE10", "save10"] }, "coupon_codes.1"],
    ["a coupon with a space", { coupon_codes: ["SAVE 10"] }, "coupon_codes.0"],
    ["a missing first name", { first_name: undefined }, "first_name"],
    ["an odd campaign id", { campaign_id: "a/b" }, "campaign_id"],
  ])("refuses %s with 422", async (_label, fields, field) => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const body = { email: "valid@example.com", first_name: "Valid", campaign_id: campaign.id, ...fields };
    const error = await expectError(await api.post("/api/v1/affiliates", body), 422, "validation_failed");
    expect(error.fields?.[field], JSON.stringify(error.fields)).toBeTruthy();
    expect(await getDb().affiliate.count()).toBe(0);
  });

  it("refuses an upline that would create a cycle", async () => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const make = async (email: string, parent_id?: string) =>
      (await api.post("/api/v1/affiliates", { email, first_name: "A", campaign_id: campaign.id, parent_id })).json();
    const top = await make("top@example.com");
    const middle = await make("middle@example.com", top.id);
    const bottom = await make("bottom@example.com", middle.id);
    expect(bottom.parent_id).toBe(middle.id);

    const cycle = await expectError(
      await api.patch(`/api/v1/affiliates/${top.id}`, { parent_id: bottom.id }),
      422,
      "validation_failed",
    );
    expect(cycle.fields?.parent_id).toContain("cycle");
    const self = await expectError(
      await api.patch(`/api/v1/affiliates/${top.id}`, { parent_id: top.id }),
      422,
      "validation_failed",
    );
    expect(self.fields?.parent_id).toContain("own upline");
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: top.id } })).parentId).toBeNull();

    // Moving bottom directly under top is fine, and so is removing an upline.
    expect((await (await api.patch(`/api/v1/affiliates/${bottom.id}`, { parent_id: top.id })).json()).parent_id).toBe(
      top.id,
    );
    expect(
      (await (await api.patch(`/api/v1/affiliates/${middle.id}`, { parent_id: null })).json()).parent_id,
    ).toBeNull();
    // Now middle is a root: putting top under middle is allowed.
    expect((await api.patch(`/api/v1/affiliates/${top.id}`, { parent_id: middle.id })).status).toBe(200);
  });

  it("stores coupon codes upper-cased, unique per shop, and replaces them on PATCH", async () => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const anna = await (
      await api.post("/api/v1/affiliates", {
        email: "anna@example.com",
        first_name: "Anna",
        campaign_id: campaign.id,
        coupon_codes: ["summer10", "Anna-15"],
      })
    ).json();
    expect(anna.coupon_codes).toEqual(["ANNA-15", "SUMMER10"]);
    const replaced = await (
      await api.patch(`/api/v1/affiliates/${anna.id}`, { coupon_codes: ["winter", "SUMMER10"] })
    ).json();
    expect(replaced.coupon_codes).toEqual(["SUMMER10", "WINTER"]);
    expect(
      (await getDb().coupon.findMany({ where: { affiliateId: anna.id }, orderBy: { code: "asc" } })).map((c) => c.code),
    ).toEqual(["SUMMER10", "WINTER"]);

    const bob = await (
      await api.post("/api/v1/affiliates", { email: "bob@example.com", first_name: "Bob", campaign_id: campaign.id })
    ).json();
    const taken = await expectError(
      await api.patch(`/api/v1/affiliates/${bob.id}`, { coupon_codes: ["Winter"] }),
      409,
      "conflict",
    );
    expect(taken.message).toContain("WINTER");
    const takenOnCreate = await api.post("/api/v1/affiliates", {
      email: "carl@example.com",
      first_name: "Carl",
      campaign_id: campaign.id,
      coupon_codes: ["summer10"],
    });
    await expectError(takenOnCreate, 409, "conflict");
    expect(await getDb().affiliate.count()).toBe(2);

    // Another shop may use the same code.
    const other = await apiFor();
    const otherCampaign = await buildCampaign(other.shop.id);
    const elsewhere = await other.api.post("/api/v1/affiliates", {
      email: "anna@example.com",
      first_name: "Anna",
      campaign_id: otherCampaign.id,
      coupon_codes: ["WINTER"],
    });
    expect(elsewhere.status).toBe(201);

    // Not sending coupon_codes keeps them; an empty list removes them.
    expect(
      (await (await api.patch(`/api/v1/affiliates/${anna.id}`, { first_name: "Annie" })).json()).coupon_codes,
    ).toEqual(["SUMMER10", "WINTER"]);
    expect(
      (await (await api.patch(`/api/v1/affiliates/${anna.id}`, { coupon_codes: [] })).json()).coupon_codes,
    ).toEqual([]);
    expect(await getDb().coupon.count({ where: { shopId: shop.id } })).toBe(0);
  });
});

describe("sales", () => {
  async function salesFixture() {
    const ctx = await apiFor();
    const campaign = await buildCampaign(ctx.shop.id);
    const anna = await buildAffiliate(ctx.shop.id, campaign.id);
    const upline = await buildAffiliate(ctx.shop.id, campaign.id);
    const bob = await buildAffiliate(ctx.shop.id, campaign.id);
    const click = await buildClick(ctx.shop.id, anna.id);
    const credited = await buildOrder(ctx.shop.id, {
      shopifyGid: "gid://shopify/Order/820982911946154508",
      name: "#1001",
      currency: "EUR",
      subtotal: 12_345,
      total: 15_000,
      refundedAmount: 500,
      affiliateId: anna.id,
      attributionSource: "link",
      attributionReason: "Last click within 30 days",
      clickId: click.clickId,
      placedAt: new Date("2025-03-10T12:00:00Z"),
    });
    const own = await buildCommission(ctx.shop.id, credited.id, anna.id, {
      amount: 1_235,
      explanation: "10 % of 123.45",
    });
    const mlm = await buildCommission(ctx.shop.id, credited.id, upline.id, { level: 2, amount: 123 });
    const refund = await buildCommission(ctx.shop.id, credited.id, anna.id, {
      kind: "refund",
      sourceRef: "gid://shopify/Refund/1",
      amount: -50,
    });
    const uncredited = await buildOrder(ctx.shop.id, {
      name: "#1002",
      attributionReason: "No coupon, click or pixel event matched",
      placedAt: new Date("2025-03-20T08:00:00Z"),
    });
    const bobs = await buildOrder(ctx.shop.id, {
      name: "#1003",
      affiliateId: bob.id,
      attributionSource: "coupon",
      reason: { key: "Sales:attributionReason.coupon", values: { who: "Bob (BOB)", code: "BOB10" } },
      status: "approved",
      placedAt: new Date("2025-04-01T00:00:00Z"),
    });
    return { ...ctx, anna, upline, bob, click, credited, uncredited, bobs, own, mlm, refund };
  }

  it("lists every order, credited or not, with filters", async () => {
    const f = await salesFixture();
    const ids = async (query: string) =>
      ((await (await f.api.get(`/api/v1/sales${query}`)).json()).data as { id: string }[]).map((s) => s.id);
    expect(await ids("")).toEqual([f.bobs.id, f.uncredited.id, f.credited.id]);
    expect(await ids("?status=pending")).toEqual([f.uncredited.id, f.credited.id]);
    expect(await ids("?status=approved")).toEqual([f.bobs.id]);
    expect(await ids(`?affiliate_id=${f.anna.id}`)).toEqual([f.credited.id]);
    expect(await ids("?since=2025-03-15")).toEqual([f.bobs.id, f.uncredited.id]);
    expect(await ids("?until=2025-03-20T08:00:00Z")).toEqual([f.credited.id]);
    expect(await ids("?since=2025-03-01&until=2025-04-01")).toEqual([f.uncredited.id, f.credited.id]);
    expect(await ids("?since=2025-03-10T13:00:00%2B01:00&until=2025-03-10T13:00:01%2B01:00")).toEqual([f.credited.id]);
    expect(await ids(`?status=approved&affiliate_id=${f.anna.id}`)).toEqual([]);
    const none = (await (await f.api.get(`/api/v1/sales/${f.uncredited.id}`)).json()).attribution;
    expect(none).toEqual({
      affiliate_id: null,
      source: "none",
      reason: "No coupon, click or pixel event matched",
      reason_key: null,
      reason_values: {},
      click_id: null,
    });
    // Newer orders store a key and values: the API writes the reason in English and sends both beside it.
    const keyed = saleSchema.strict().parse(await (await f.api.get(`/api/v1/sales/${f.bobs.id}`)).json()).attribution;
    expect(keyed).toEqual({
      affiliate_id: f.bob.id,
      source: "coupon",
      reason: "Credited to Bob (BOB): their coupon BOB10 was used at checkout.",
      reason_key: "Sales:attributionReason.coupon",
      reason_values: { who: "Bob (BOB)", code: "BOB10" },
      click_id: null,
    });
  });

  it("shows a sale with its exact order id, attribution and commissions", async () => {
    const f = await salesFixture();
    const res = await f.api.get(`/api/v1/sales/${f.credited.id}`);
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).toContain('"order_id":"820982911946154508"');
    const sale = saleSchema.strict().parse(JSON.parse(raw));
    expect(sale).toEqual({
      id: f.credited.id,
      order_id: "820982911946154508",
      order_gid: "gid://shopify/Order/820982911946154508",
      name: "#1001",
      currency: "EUR",
      subtotal: 12_345,
      total: 15_000,
      refunded_amount: 500,
      status: "pending",
      placed_at: "2025-03-10T12:00:00.000Z",
      created_at: f.credited.createdAt.toISOString(),
      attribution: {
        affiliate_id: f.anna.id,
        source: "link",
        reason: "Last click within 30 days",
        reason_key: null,
        reason_values: {},
        click_id: f.click.clickId,
      },
      commissions: expect.any(Array),
    });
    expect(sale.commissions).toHaveLength(3);
    expect(sale.commissions.find((c) => c.id === f.own.id)).toEqual({
      id: f.own.id,
      affiliate_id: f.anna.id,
      level: 1,
      kind: "sale",
      amount: 1_235,
      currency: "USD",
      status: "pending",
      explanation: "10 % of 123.45",
    });
    expect(sale.commissions.find((c) => c.id === f.mlm.id)).toMatchObject({ affiliate_id: f.upline.id, level: 2 });
    expect(sale.commissions.at(-1)?.level).toBe(2);
    await expectError(await f.api.get("/api/v1/sales/doesnotexist"), 404, "not_found");
  });

  it("approves a pending sale and its pending sale commissions, once", async () => {
    const f = await salesFixture();
    await getDb().order.update({
      where: { id: f.credited.id },
      data: { approveAfter: new Date(Date.now() + 86_400_000) },
    });
    const res = await f.api.post(`/api/v1/sales/${f.credited.id}/approve`);
    expect(res.status).toBe(200);
    const sale = saleSchema.parse(await res.json());
    expect(sale.status).toBe("approved");
    const statuses = Object.fromEntries(sale.commissions.map((c) => [c.id, c.status]));
    // The refund made while the sale was pending follows it: payable is the refunded amount.
    expect(statuses).toEqual({ [f.own.id]: "approved", [f.mlm.id]: "approved", [f.refund.id]: "approved" });
    const row = await getDb().order.findUniqueOrThrow({ where: { id: f.credited.id } });
    expect(row).toMatchObject({ status: "approved", approveAfter: null });

    const again = await expectError(await f.api.post(`/api/v1/sales/${f.credited.id}/approve`), 409, "conflict");
    expect(again.message).toContain("approved");
    const deny = await expectError(await f.api.post(`/api/v1/sales/${f.credited.id}/deny`), 409, "conflict");
    expect(deny.message).toContain("this sale is approved");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: f.credited.id } })).status).toBe("approved");
  });

  it("denies a pending sale and its pending commissions", async () => {
    const f = await salesFixture();
    const paid = await buildCommission(f.shop.id, f.credited.id, f.bob.id, { status: "approved", level: 3 });
    await payLinesByHand(f.shop.id, [paid.id]);
    const res = await f.api.post(`/api/v1/sales/${f.credited.id}/deny`);
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe("denied");
    const rows = await getDb().commission.findMany({ where: { orderId: f.credited.id } });
    const byId = Object.fromEntries(rows.map((c) => [c.id, c.status]));
    expect(byId).toEqual({ [f.own.id]: "denied", [f.mlm.id]: "denied", [f.refund.id]: "denied", [paid.id]: "paid" });
    await expectError(await f.api.post(`/api/v1/sales/${f.credited.id}/approve`), 409, "conflict");
    // The uncredited order is untouched.
    expect((await getDb().order.findUniqueOrThrow({ where: { id: f.uncredited.id } })).status).toBe("pending");
  });
});

describe("pagination", () => {
  it("walks 30 affiliates in pages of 10 without duplicates or misses, stable under inserts", async () => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const created: string[] = [];
    const tie = new Date("2025-01-01T00:00:00Z");
    for (let i = 0; i < 30; i++) {
      const affiliate = await buildAffiliate(shop.id, campaign.id);
      // A third share one createdAt: the id breaks the tie.
      const createdAt = i % 3 === 0 ? tie : new Date(Date.UTC(2025, 0, 2, 0, 0, i));
      await getDb().affiliate.update({ where: { id: affiliate.id }, data: { createdAt } });
      created.push(affiliate.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/api/v1/affiliates?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { id: string; created_at: string }[]; next_cursor: string | null };
      expect(body.data.length).toBeLessThanOrEqual(10);
      seen.push(...body.data.map((a) => a.id));
      cursor = body.next_cursor;
      pages++;
      // A newcomer during the walk sorts first and never shifts the pages.
      if (pages === 1) await buildAffiliate(shop.id, campaign.id);
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(30);
    expect([...seen].sort()).toEqual([...created].sort());
    const rows = await getDb().affiliate.findMany({
      where: { id: { in: created } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(seen).toEqual(rows.map((r) => r.id));

    const firstPage = await (await api.get("/api/v1/affiliates")).json();
    expect(firstPage.data).toHaveLength(25);
    expect(firstPage.next_cursor).toEqual(expect.any(String));
    const rest = await (await api.get(`/api/v1/affiliates?limit=100&cursor=${firstPage.next_cursor}`)).json();
    expect(rest.data).toHaveLength(6);
    expect(rest.next_cursor).toBeNull();
    const exact = await (await api.get("/api/v1/affiliates?limit=31")).json();
    expect(exact.data).toHaveLength(31);
    expect(exact.next_cursor).toBeNull();

    const bad = await expectError(
      await api.get("/api/v1/affiliates?cursor=bm90LWEtY3Vyc29y"),
      422,
      "validation_failed",
    );
    expect(bad.fields?.cursor).toBe("Not a valid cursor");
  });
});

describe("clicks", () => {
  it("lists clicks by affiliate and time, with the user agent and without the IP hash", async () => {
    const { api, shop } = await apiFor();
    const campaign = await buildCampaign(shop.id);
    const anna = await buildAffiliate(shop.id, campaign.id);
    const bob = await buildAffiliate(shop.id, campaign.id);
    const early = await buildClick(shop.id, anna.id, {
      createdAt: new Date("2025-05-01T10:00:00Z"),
      userAgent: "UA-early",
    });
    const late = await buildClick(shop.id, anna.id, { createdAt: new Date("2025-05-03T10:00:00Z") });
    const bobs = await buildClick(shop.id, bob.id, { createdAt: new Date("2025-05-02T10:00:00Z") });
    const ids = async (query: string) =>
      ((await (await api.get(`/api/v1/clicks${query}`)).json()).data as { id: string }[]).map((c) => c.id);
    expect(await ids("")).toEqual([late.id, bobs.id, early.id]);
    expect(await ids(`?affiliate_id=${anna.id}`)).toEqual([late.id, early.id]);
    expect(await ids("?since=2025-05-02")).toEqual([late.id, bobs.id]);
    expect(await ids("?until=2025-05-02T10:00:00Z")).toEqual([early.id]);
    expect(await ids(`?affiliate_id=${anna.id}&since=2025-05-02&until=2025-05-04`)).toEqual([late.id]);
    expect(await ids(`?affiliate_id=${anna.id}&limit=1`)).toEqual([late.id]);

    const body = await (await api.get(`/api/v1/clicks?affiliate_id=${anna.id}&until=2025-05-02`)).json();
    expect(clickSchema.strict().parse(body.data[0])).toEqual({
      id: early.id,
      click_id: early.clickId,
      affiliate_id: anna.id,
      source: "link",
      landing_url: "https://shop.example/products/a",
      referrer: "https://blog.example/post",
      user_agent: "UA-early",
      created_at: "2025-05-01T10:00:00.000Z",
    });
    expect(JSON.stringify(body)).not.toContain("ip-hash-secret");
  });
});

describe("openapi.json", () => {
  it("is a public OpenAPI 3 document with every path, the bearer scheme and the error schema", async () => {
    const res = await new ApiClient(server.url).get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/v1/affiliates",
        "/api/v1/affiliates/{id}",
        "/api/v1/campaigns",
        "/api/v1/campaigns/{id}",
        "/api/v1/clicks",
        "/api/v1/openapi.json",
        "/api/v1/payouts",
        "/api/v1/payouts/{id}",
        "/api/v1/payouts/{id}/mark-paid",
        "/api/v1/paypal/connection",
        "/api/v1/referral-program",
        "/api/v1/referrals",
        "/api/v1/referrals/{id}",
        "/api/v1/sales",
        "/api/v1/sales/{id}",
        "/api/v1/sales/{id}/{decision}",
        "/api/v1/shop",
        "/api/v1/webhook-endpoints",
        "/api/v1/webhook-endpoints/{id}",
      ].sort(),
    );
    expect(Object.keys(doc.paths["/api/v1/campaigns"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/affiliates/{id}"]).sort()).toEqual(["get", "patch"]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v1/shop"].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/api/v1/openapi.json"].get.security).toBeUndefined();
    expect(doc.components.schemas.Error.properties.error).toBeTruthy();
    expect(doc.components.schemas.Campaign.properties.levels).toBeTruthy();
    const query = (doc.paths["/api/v1/sales"].get.parameters as { name: string; in: string }[])
      .filter((p) => p.in === "query")
      .map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(["limit", "cursor", "status", "affiliate_id", "since", "until"]));
    const body = doc.paths["/api/v1/campaigns"].post.requestBody.content["application/json"].schema;
    expect(body.properties.cookie_days).toMatchObject({ minimum: 1, maximum: 365 });
    expect(doc.paths["/api/v1/campaigns/{id}"].get.responses["404"]).toBeTruthy();
  });
});
