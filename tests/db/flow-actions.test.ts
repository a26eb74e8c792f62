import { beforeEach, describe, expect, it } from "vitest";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { getDb } from "~/db.server";
import { shopifyHmac } from "~/lib/shopify-hmac";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Shopify Flow actions over real HTTP: POST /flow/actions/{handle} as Flow's
// action runtime sends it, signed with the app's API secret. The signature is
// checked before anything; the change and the run's record commit together,
// so Flow's retry of the same action_run_id changes nothing.

applyTestEnv();
useTestDatabase();
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
    ["an unknown action", "tag-affiliate", body("tag-affiliate", {}), 404, "No Flow action tag-affiliate."],
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
