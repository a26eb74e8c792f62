import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

applyTestEnv();
useTestDatabase();
const server = useTestServer();

async function login(role: "admin" | "staff", permissions: string[] = []) {
  const shop = await buildShop();
  const user = await buildUser(shop.id, { role, permissions });
  const client = new HttpClient(server.url);
  const res = await client.postForm(role === "admin" ? "/login" : "/staff/login", {
    email: user.email,
    password: TEST_PASSWORD,
  });
  expect(res.status).toBe(302);
  return { client, shop };
}

describe("GET /api/shop", () => {
  it("answers 401 JSON without a session", async () => {
    const res = await new HttpClient(server.url).get("/api/shop");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthenticated", message: "Log in to continue." } });
  });

  it("returns the shop record with the fields of spec section 3", async () => {
    const { client, shop } = await login("admin");
    const res = await client.get("/api/shop");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(body).toMatchObject({
      id: shop.id,
      url: shop.url,
      version: "0.1.0",
      created_at: shop.createdAt.toISOString(),
      configuration: { admin_email: shop.adminEmail, plan_name: null },
      pricing: { plan: "growth" },
      setting: { general: { language: "en", referral_param: "ref" } },
    });
    expect(body.pricing).not.toHaveProperty("needSelectPlan");
  });

  it("includes needSelectPlan only when it is defined", async () => {
    const shop = await buildShop({ pricingPlan: null, needSelectPlan: true });
    const user = await buildUser(shop.id);
    const client = new HttpClient(server.url);
    await client.postForm("/login", { email: user.email, password: TEST_PASSWORD });
    const body = await (await client.get("/api/shop")).json();
    expect(body.pricing).toEqual({ plan: null, needSelectPlan: true });
  });
});

describe("POST /api/shop", () => {
  it("updates the shop and answers the new record", async () => {
    const { client, shop } = await login("admin");
    const res = await client.postJson("/api/shop", {
      money_format: "{{amount_with_comma_separator}} €",
      setting: { general: { language: "de", referral_param: "aff" } },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.shop.money_format).toBe("{{amount_with_comma_separator}} €");
    expect(body.shop.setting.general).toEqual({ language: "de", referral_param: "aff" });
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row).toMatchObject({
      language: "de",
      referralParam: "aff",
      moneyFormat: "{{amount_with_comma_separator}} €",
    });
  });

  it.each([
    [
      "an unknown language",
      { setting: { general: { language: "xx" } } },
      "setting.general.language",
      "Choose a supported language",
    ],
    ["a money format without an amount", { money_format: "USD" }, "money_format", "Include one of"],
    [
      "a parameter with spaces",
      { setting: { general: { referral_param: "my ref" } } },
      "setting.general.referral_param",
      "Use 1 to 20 letters",
    ],
    ["an unknown field", { plan: "pro" }, "_", "Unrecognized key"],
  ])("refuses %s with 422 and changes nothing", async (_label, payload, field, message) => {
    const { client, shop } = await login("admin");
    const before = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    const res = await client.postJson("/api/shop", payload);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.fields[field]).toContain(message);
    const after = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("answers malformed or mistyped bodies with 400", async () => {
    const { client } = await login("admin");
    const broken = await client.postJson("/api/shop", "{not json");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.message).toBe("The request body is not valid JSON.");
    const form = await client.postForm("/api/shop", { money_format: "${{amount}}" });
    expect(form.status).toBe(400);
    const huge = await client.postJson("/api/shop", { money_format: "x".repeat(300_000) });
    expect(huge.status).toBe(413);
  });

  it("refuses staff without the settings permission, and allows staff with it", async () => {
    const denied = await login("staff", ["campaigns"]);
    const res = await denied.client.postJson("/api/shop", { setting: { general: { language: "fr" } } });
    expect(res.status).toBe(403);
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: denied.shop.id } })).language).toBe("en");
    const allowed = await login("staff", ["settings"]);
    expect((await allowed.client.postJson("/api/shop", { setting: { general: { language: "fr" } } })).status).toBe(200);
    // Staff reading the shop record needs no particular permission.
    expect((await denied.client.get("/api/shop")).status).toBe(200);
  });

  it("only ever touches the caller's own shop", async () => {
    const { client, shop } = await login("admin");
    const other = await buildShop();
    await client.postJson("/api/shop", { setting: { general: { language: "it" } } });
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).language).toBe("it");
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: other.id } })).language).toBe("en");
  });
});
