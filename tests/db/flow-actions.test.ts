import { beforeEach, describe, expect, it } from "vitest";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { getDb } from "~/db.server";
import { shopifyHmac } from "~/lib/shopify-hmac";
import { ApiClient, buildApiKey, buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { english } from "../support/explanations";
import { useMoneyCheck } from "../support/money-check";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Shopify Flow actions over real HTTP: POST /flow/actions/{handle} as Flow's
// action runtime sends it, signed with the app's API secret. The signature is
// checked before anything; the change and the run's record commit together,
// so Flow's retry of the same action_run_id changes nothing.

applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

let runs = 0;
const SHOP = "flow-actions.myshopify.com";

function body(handle: string, properties: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    shop_id: 7001,
    shopify_domain: SHOP,
    action_run_id: `run-${++runs}`,
    action_definition_id: handle,
    handle,
    properties,
    ...overrides,
  });
}

async function post(handle: string, raw: string, signature: string | null = shopifyHmac(API_SECRET_KEY, raw)) {
  const response = await fetch(server.url(`/flow/actions/${handle}`), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(signature === null ? {} : { "x-shopify-hmac-sha256": signature }),
    },
    body: raw,
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function setup() {
  const shop = await buildShop({ domain: SHOP });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "pending", referralCode: "ANNA7" });
  return { shop, campaign, affiliate };
}

const approvals = (affiliateId: string) =>
  getDb().domainEvent.count({ where: { type: "affiliate.approved", data: { contains: affiliateId } } });

beforeEach(() => {
  runs += 100;
});

describe("Shopify Flow actions", () => {
  it("refuses a bad signature before anything, and a good one approves the affiliate", async () => {
    const { affiliate } = await setup();
    const raw = body("approve-affiliate", { affiliate: "ANNA7" });

    for (const signature of [null, "", shopifyHmac("another secret", raw), shopifyHmac(API_SECRET_KEY, `${raw} `)]) {
      const refused = await post("approve-affiliate", raw, signature);
      expect(refused.status).toBe(401);
      expect(refused.json.error.code).toBe("unauthenticated");
    }
    expect(await getDb().affiliate.findUniqueOrThrow({ where: { id: affiliate.id } })).toMatchObject({
      status: "pending",
    });
    expect(await getDb().flowActionRun.count()).toBe(0);

    const done = await post("approve-affiliate", raw);
    expect(done).toEqual({ status: 200, json: { affiliate_id: affiliate.id, status: "approved", changed: true } });
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: affiliate.id } })).status).toBe("approved");
    expect(await approvals(affiliate.id)).toBe(1);

    // Flow's retry of the same run: the same answer, nothing changed, nothing announced again.
    expect(await post("approve-affiliate", raw)).toEqual(done);
    expect(await approvals(affiliate.id)).toBe(1);
    expect(await getDb().flowActionRun.count()).toBe(1);
  });

  it("denies, refuses a change from the wrong state with 409, and a retry gets that same answer", async () => {
    const { shop, campaign, affiliate } = await setup();
    const other = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "ola@example.com" });
    expect((await post("deny-affiliate", body("deny-affiliate", { affiliate: "OLA@example.com" }))).json).toEqual({
      affiliate_id: other.id,
      status: "denied",
      changed: true,
    });

    await getDb().affiliate.update({ where: { id: affiliate.id }, data: { status: "approved" } });
    const raw = body("deny-affiliate", { affiliate: affiliate.id });
    const refused = await post("deny-affiliate", raw);
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toBe("The affiliate is approved; it cannot be denied from there.");
    // Meanwhile it became pending: the retry still gets the run's first answer, and changes nothing.
    await getDb().affiliate.update({ where: { id: affiliate.id }, data: { status: "pending" } });
    expect(await post("deny-affiliate", raw)).toEqual(refused);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: affiliate.id } })).status).toBe("pending");
    // Approving an approved affiliate is no error: nothing to do.
    expect(
      (await post("approve-affiliate", body("approve-affiliate", { affiliate: other.referralCode }))).json,
    ).toEqual({
      affiliate_id: other.id,
      status: "approved",
      changed: true,
    });
    expect((await post("approve-affiliate", body("approve-affiliate", { affiliate: other.id }))).json.changed).toBe(
      false,
    );
  });

  it("creates an affiliate once per run", async () => {
    const { shop, campaign } = await setup();
    const raw = body("create-affiliate", {
      email: "Nia@Example.com",
      first_name: "Nia",
      last_name: "Long",
      campaign_id: campaign.id,
      status: "approved",
    });
    const first = await post("create-affiliate", raw);
    expect(first.status).toBe(200);
    expect(await post("create-affiliate", raw)).toEqual(first);
    const created = await getDb().affiliate.findMany({ where: { shopId: shop.id, email: "nia@example.com" } });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ id: first.json.affiliate_id, status: "approved", firstName: "Nia" });
    const event = await getDb().domainEvent.findFirstOrThrow({ where: { type: "affiliate.created" } });
    expect(JSON.parse(event.data)).toMatchObject({ source: "flow", status: "approved" });

    // The same e-mail in another run: refused, with the field's message.
    const again = await post(
      "create-affiliate",
      body("create-affiliate", { email: "nia@example.com", first_name: "N" }),
    );
    expect(again.status).toBe(422);
  });

  it.each([
    ["not JSON", "approve-affiliate", "{", 400, "The body is not JSON."],
    [
      "no action_run_id",
      "approve-affiliate",
      body("approve-affiliate", {}, { action_run_id: "" }),
      400,
      "action_run_id is required",
    ],
    [
      "another handle in the body",
      "approve-affiliate",
      body("deny-affiliate", { affiliate: "ANNA7" }),
      400,
      "The body's handle deny-affiliate is not this action's (approve-affiliate).",
    ],
    ["an unknown action", "delete-affiliate", body("delete-affiliate", {}), 404, "No Flow action delete-affiliate."],
    [
      "a shop that is not installed",
      "approve-affiliate",
      body("approve-affiliate", { affiliate: "ANNA7" }, { shopify_domain: "other.myshopify.com" }),
      404,
      "The app is not installed on other.myshopify.com.",
    ],
    ["a missing property", "approve-affiliate", body("approve-affiliate", {}), 422, "affiliate is required"],
    [
      "an affiliate of no one",
      "approve-affiliate",
      body("approve-affiliate", { affiliate: "NOBODY" }),
      404,
      "No affiliate NOBODY in this shop.",
    ],
    [
      "a bad e-mail",
      "create-affiliate",
      body("create-affiliate", { email: "x", first_name: "X" }),
      422,
      "email is not an e-mail address",
    ],
  ])("answers %s with a 4xx that says so", async (_what, handle, raw, status, message) => {
    await setup();
    const answer = await post(handle, raw);
    expect(answer.status).toBe(status);
    expect(answer.json.error.message).toBe(message);
  });

  it("acts only in the shop the request names", async () => {
    await setup();
    const elsewhere = await buildShop({ domain: "elsewhere.myshopify.com" });
    const theirs = await buildAffiliate(elsewhere.id, (await buildCampaign(elsewhere.id)).id, { status: "pending" });
    const answer = await post("approve-affiliate", body("approve-affiliate", { affiliate: theirs.id }));
    expect(answer.status).toBe(404);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("pending");
  });

  it("answers only POST", async () => {
    const response = await fetch(server.url("/flow/actions/approve-affiliate"));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe("the Flow action adjust-commission", () => {
  async function sale(status: "pending" | "approved" | "paid" | "denied" = "approved") {
    const { shop, campaign, affiliate } = await setup();
    const order = await buildOrder(shop.id, {
      affiliateId: affiliate.id,
      name: "#1001",
      shopifyGid: "gid://shopify/Order/5001",
      status: status === "paid" ? "approved" : status,
    });
    const line = await buildCommission(shop.id, order.id, affiliate.id, {
      amount: 1_000,
      status,
      explanation: "",
    });
    if (status === "paid") {
      // Paid by a paid payout of exactly this line (the money checker holds the books to that).
      const payout = await getDb().payout.create({
        data: {
          shopId: shop.id,
          affiliateId: affiliate.id,
          amount: 1_000,
          currency: "USD",
          status: "paid",
          paidAt: new Date(),
        },
      });
      await getDb().commission.update({ where: { id: line.id }, data: { payoutId: payout.id } });
    }
    return { shop, campaign, affiliate, order, line };
  }
  const adjustments = (orderId: string) =>
    getDb().commission.findMany({ where: { orderId, kind: "adjustment" }, orderBy: { createdAt: "asc" } });

  it("refuses a bad signature, adds one line with the note for a good one, and a replay changes nothing", async () => {
    const { affiliate, order } = await sale("approved");
    const raw = body("adjust-commission", { order: "#1001", amount: -2.5, note: "Returned after the window" });
    expect((await post("adjust-commission", raw, shopifyHmac("another secret", raw))).status).toBe(401);
    expect((await post("adjust-commission", raw, null)).status).toBe(401);
    expect(await adjustments(order.id)).toHaveLength(0);

    const done = await post("adjust-commission", raw);
    const [line] = await adjustments(order.id);
    expect(done).toEqual({
      status: 200,
      json: {
        commission_id: line!.id,
        order_id: order.id,
        affiliate_id: affiliate.id,
        amount: -2.5,
        currency: "USD",
        status: "approved",
        commission_before: 10,
        commission_after: 7.5,
        changed: true,
      },
    });
    expect(line).toMatchObject({ affiliateId: affiliate.id, level: 1, amount: -250, status: "approved" });
    // Stored as a key and values, worded by the reader: the merchant's note stays as written.
    expect(line!.explanation.startsWith("explain:")).toBe(true);
    expect(english(line!.explanation)).toBe("Note from the shop: Returned after the window");
    const created = () =>
      getDb().domainEvent.count({ where: { type: "commission.created", data: { contains: '"adjustment"' } } });
    expect(await created()).toBe(1);

    // Flow's retry of the run: the same answer, no second line, no second event.
    expect(await post("adjust-commission", raw)).toEqual(done);
    expect(await adjustments(order.id)).toHaveLength(1);
    expect(await created()).toBe(1);
  });

  it("follows a pending sale: the adjustment is pending too, approved or denied with it", async () => {
    const { order } = await sale("pending");
    const answer = await post(
      "adjust-commission",
      body("adjust-commission", { order: "gid://shopify/Order/5001", amount: "5", note: "Launch bonus" }),
    );
    expect(answer.json).toMatchObject({ status: "pending", amount: 5, commission_after: 15 });
    expect((await adjustments(order.id))[0]).toMatchObject({ status: "pending", amount: 500 });
  });

  it("after a paid sale adds an approved line for the next payout and leaves the paid line alone", async () => {
    const { line, order } = await sale("paid");
    const answer = await post(
      "adjust-commission",
      body("adjust-commission", { order: "5001", amount: 3, note: "Shipping refunded by us", affiliate: "ANNA7" }),
    );
    expect(answer.json).toMatchObject({ status: "approved", amount: 3, commission_after: 13 });
    expect((await adjustments(order.id))[0]).toMatchObject({ status: "approved", amount: 300, payoutId: null });
    expect(await getDb().commission.findUniqueOrThrow({ where: { id: line.id } })).toMatchObject({
      status: "paid",
      amount: 1_000,
    });
  });

  it("answers 409 for an order in a state it cannot adjust, and 4xx for bad input, changing nothing", async () => {
    const { shop, campaign, order } = await sale("approved");
    const refuse = async (properties: Record<string, unknown>, status: number, message: string) => {
      const raw = body("adjust-commission", properties);
      const answer = await post("adjust-commission", raw);
      expect(answer.status, message).toBe(status);
      expect(answer.json.error.message).toBe(message);
      // A retry gets the same refusal.
      expect(await post("adjust-commission", raw)).toEqual(answer);
    };
    await refuse(
      { order: "#1001", amount: -10.01, note: "Too much" },
      409,
      "The commission on order #1001 is $10.00; taking off $10.01 would make it negative.",
    );
    await refuse({ order: "#1001", amount: "1.001", note: "x" }, 422, "amount: USD has at most 2 decimals");
    await refuse({ order: "#1001", amount: 0, note: "x" }, 422, "amount must not be zero");
    await refuse({ order: "#1001", amount: 1 }, 422, "note is required");
    await refuse({ order: "#9999", amount: 1, note: "x" }, 404, "No order #9999 in this shop.");
    const stranger = await buildAffiliate(shop.id, campaign.id, { email: "zed@example.com" });
    await refuse(
      { order: "#1001", amount: 1, note: "x", affiliate: stranger.id },
      409,
      "The affiliate earned no commission on order #1001.",
    );
    await getDb().order.update({ where: { id: order.id }, data: { status: "void", cancelledAt: new Date() } });
    await refuse(
      { order: "#1001", amount: 1, note: "x" },
      409,
      "Order #1001 was cancelled; its commissions cannot be adjusted.",
    );
    expect(await adjustments(order.id)).toHaveLength(0);
  });

  it("of two runs at once that together would go below zero, one adds its line and the other gets 409", async () => {
    const { order } = await sale("approved");
    const answers = await Promise.all(
      [1, 2].map(() =>
        post("adjust-commission", body("adjust-commission", { order: "#1001", amount: -6, note: "Chargeback" })),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await adjustments(order.id)).map((l) => l.amount)).toEqual([-600]);
  });

  it("refuses a denied sale with 409", async () => {
    const { order } = await sale("denied");
    const answer = await post("adjust-commission", body("adjust-commission", { order: "#1001", amount: 1, note: "x" }));
    expect(answer.status).toBe(409);
    expect(answer.json.error.message).toBe(
      "The affiliate's commission on order #1001 is denied; it cannot be adjusted.",
    );
    expect(await adjustments(order.id)).toHaveLength(0);
  });
});

describe("the Flow action tag-affiliate", () => {
  const tagsOf = async (affiliateId: string) =>
    (await getDb().affiliateTag.findMany({ where: { affiliateId }, orderBy: { tag: "asc" } })).map((t) => t.tag);

  it("refuses a bad signature, tags once per run, removes, and the REST API returns the tags", async () => {
    const { shop, affiliate } = await setup();
    const raw = body("tag-affiliate", { affiliate: "anna7", add_tags: "VIP, TikTok" });
    expect((await post("tag-affiliate", raw, shopifyHmac("another secret", raw))).status).toBe(401);
    expect(await tagsOf(affiliate.id)).toEqual([]);

    const done = await post("tag-affiliate", raw);
    expect(done).toEqual({
      status: 200,
      json: {
        affiliate_id: affiliate.id,
        tags: ["tiktok", "vip"],
        added: ["vip", "tiktok"],
        removed: [],
        changed: true,
      },
    });
    await getDb().affiliateTag.deleteMany({ where: { affiliateId: affiliate.id, tag: "vip" } });
    // The retry answers as the first time and does not put back what changed since.
    expect(await post("tag-affiliate", raw)).toEqual(done);
    expect(await tagsOf(affiliate.id)).toEqual(["tiktok"]);

    const again = await post(
      "tag-affiliate",
      body("tag-affiliate", { affiliate: affiliate.id, add_tags: "tiktok", remove_tags: "nope" }),
    );
    expect(again.json).toMatchObject({ tags: ["tiktok"], added: [], removed: [], changed: false });
    const swap = await post(
      "tag-affiliate",
      body("tag-affiliate", { affiliate: "anna7", add_tags: "gold", remove_tags: "TIKTOK" }),
    );
    expect(swap.json).toMatchObject({ tags: ["gold"], added: ["gold"], removed: ["tiktok"], changed: true });

    const { key } = await buildApiKey(shop.id);
    const api = await new ApiClient(server.url, key).get(`/api/v1/affiliates/${affiliate.id}`);
    expect(api.status).toBe(200);
    const list = await new ApiClient(server.url, key).get("/api/v1/affiliates?tag=GOLD");
    expect(((await list.json()) as { data: { id: string }[] }).data.map((a) => a.id)).toEqual([affiliate.id]);
    expect(((await api.json()) as { tags: string[] }).tags).toEqual(["gold"]);
  });

  it("answers 409 past the tag limit and 4xx for bad input, changing nothing", async () => {
    const { shop, affiliate } = await setup();
    await getDb().affiliateTag.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({ shopId: shop.id, affiliateId: affiliate.id, tag: `t${i}` })),
    });
    const full = await post("tag-affiliate", body("tag-affiliate", { affiliate: "ANNA7", add_tags: "one more" }));
    expect(full.status).toBe(409);
    expect(full.json.error.message).toBe("The affiliate has 50 tags; adding 1 would pass the limit of 50.");
    const empty = await post("tag-affiliate", body("tag-affiliate", { affiliate: "ANNA7", add_tags: " , " }));
    expect(empty.status).toBe(422);
    expect(empty.json.error.message).toBe("add_tags or remove_tags must name a tag");
    const nobody = await post("tag-affiliate", body("tag-affiliate", { affiliate: "NOBODY", add_tags: "x" }));
    expect(nobody.status).toBe(404);
    expect(await getDb().affiliateTag.count()).toBe(50);
  });
});
