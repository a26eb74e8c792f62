import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { openApiDocument } from "~/models/api/openapi.server";
import { programToForm } from "~/models/referrals/program-form";
import {
  DEFAULT_REFERRAL_PROGRAM,
  readReferralProgram,
  type ReferralProgram,
} from "~/models/referrals/program-settings";
import { saveReferralProgram } from "~/models/referrals/save-referral-program.server";
import { logInAs } from "../support/admin-client";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The refer-a-friend program settings over real HTTP: the admin screen's
// loader and action (amounts typed in the shop currency) and the REST API
// GET/PUT /api/v1/referral-program. Bad input is a 4xx naming the field and
// stores nothing; staff without the area and shops whose plan lacks
// referAFriend are refused; switching the program off withdraws the codes.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const PAGE = "/admin/referrals";
const ROUTE = "routes/$role.referrals._index";

async function setUp(plan: string | null = "growth", currency = "USD") {
  const shop = await buildShop({ pricingPlan: plan });
  if (currency !== "USD") await getDb().shop.update({ where: { id: shop.id }, data: { currency } });
  const admin = await buildUser(shop.id, { email: `admin-${shop.id}@example.com` });
  return { shop, admin: await logInAs(server.url, "admin", admin.email) };
}

const stored = async (shopId: string) =>
  readReferralProgram((await getDb().shop.findUniqueOrThrow({ where: { id: shopId } })).settings);
const rawSettings = async (shopId: string) =>
  (await getDb().shop.findUniqueOrThrow({ where: { id: shopId } })).settings;

const form = (exponent = 2) => ({
  ...programToForm(DEFAULT_REFERRAL_PROGRAM, exponent),
  enabled: true,
  codeMode: "unique" as const,
  friendType: "fixed_amount" as const,
  friendValue: "7.50",
  friendMinimumOrder: "40",
  friendExpiryDays: "30",
  advocateKind: "cash" as const,
  advocateValue: "12.25",
  holdDays: "21",
  burstThreshold: "3",
  burstMinutes: "15",
  blockExistingCustomers: false,
  couponSiteThreshold: "80",
  widgetPosition: "bottom-left" as const,
  widgetColor: "#aa3300",
  widgetButtonText: "Share & save",
});

describe("the referral program screen", () => {
  it("loads the defaults as typed in the shop currency, saves a program in minor units and reloads it", async () => {
    const { shop, admin } = await setUp();
    const first = await admin.load(PAGE, ROUTE);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ form: programToForm(DEFAULT_REFERRAL_PROGRAM, 2), currency: "USD" });

    const res = await admin.act(PAGE, ROUTE, form());
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).saved).toMatchObject({ friendValue: "7.5", advocateValue: "12.25", holdDays: "21" });
    expect(await stored(shop.id)).toEqual({
      enabled: true,
      whoCanRefer: "anyone",
      codeMode: "unique",
      friendReward: { type: "fixed_amount", value: 750, minimumOrder: 4000, firstOrderOnly: true, expiryDays: 30 },
      advocateReward: { kind: "cash", type: "fixed_amount", value: 1225 },
      holdDays: 21,
      fraud: { burstThreshold: 3, burstMinutes: 15, blockExistingCustomers: false, couponSiteThreshold: 80 },
      widget: {
        ...DEFAULT_REFERRAL_PROGRAM.widget,
        position: "bottom-left",
        color: "#aa3300",
        buttonText: "Share & save",
      },
    } satisfies ReferralProgram);
    expect((await (await admin.load(PAGE, ROUTE)).json()).form).toMatchObject({
      friendValue: "7.5",
      friendMinimumOrder: "40",
      widgetButtonText: "Share & save",
    });
  });

  it("keeps the other settings of the shop", async () => {
    const { shop, admin } = await setUp();
    await getDb().shop.update({
      where: { id: shop.id },
      data: { settings: JSON.stringify({ branding: { font: "mono" } }) },
    });
    expect((await admin.act(PAGE, ROUTE, form())).status).toBe(200);
    expect(JSON.parse(await rawSettings(shop.id)).branding).toEqual({ font: "mono" });
  });

  it("reads amounts in a currency without decimals as whole units", async () => {
    const { shop, admin } = await setUp("growth", "JPY");
    const res = await admin.act(PAGE, ROUTE, {
      ...form(0),
      friendValue: "500",
      friendMinimumOrder: "3000",
      advocateValue: "1200",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await stored(shop.id)).friendReward).toMatchObject({ value: 500, minimumOrder: 3000 });
    const cents = await admin.act(PAGE, ROUTE, { ...form(0), friendValue: "5.5", advocateValue: "1200" });
    expect(cents.status).toBe(422);
    expect((await cents.json()).error.fields).toHaveProperty("friendValue");
  });

  it.each([
    [{ friendValue: "abc" }, "friendValue"],
    [{ friendValue: "-1" }, "friendValue"],
    [{ friendValue: "0" }, "friendValue"],
    [{ friendType: "percentage", friendValue: "150" }, "friendValue"],
    [{ friendMinimumOrder: "1.999" }, "friendMinimumOrder"],
    [{ advocateValue: "" }, "advocateValue"],
    [{ advocateValue: "1e9" }, "advocateValue"],
    [{ holdDays: "366" }, "holdDays"],
    [{ burstThreshold: "1" }, "burstThreshold"],
    [{ burstMinutes: "0" }, "burstMinutes"],
    [{ couponSiteThreshold: "2.5" }, "couponSiteThreshold"],
    [{ widgetColor: "red" }, "widgetColor"],
    [{ widgetTitle: "x".repeat(81) }, "widgetTitle"],
    [{ codeMode: "many" }, "codeMode"],
    [{ enabled: "yes" }, "enabled"],
  ])("refuses %j with a field error and stores nothing", async (change, field) => {
    const { shop, admin } = await setUp();
    const before = await rawSettings(shop.id);
    const res = await admin.act(PAGE, ROUTE, { ...form(), ...change });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).error.fields)).toContain(field);
    expect(await rawSettings(shop.id)).toBe(before);
  });

  it("refuses staff without the referrals area, and lets staff with it in", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: "no-area@example.com", permissions: ["sales"] });
    await buildUser(shop.id, { role: "staff", email: "with-area@example.com", permissions: ["referrals"] });
    const without = await logInAs(server.url, "staff", "no-area@example.com");
    const page = "/staff/referrals";
    expect((await without.load(page, ROUTE)).status).toBe(403);
    expect((await without.act(page, ROUTE, form())).status).toBe(403);
    expect(await stored(shop.id)).toEqual(DEFAULT_REFERRAL_PROGRAM);
    const withArea = await logInAs(server.url, "staff", "with-area@example.com");
    expect((await withArea.load(page, ROUTE)).status).toBe(200);
    expect((await withArea.act(page, ROUTE, form())).status).toBe(200);
  });

  it("answers a plan without refer-a-friend with the upgrade prompt and stores nothing", async () => {
    const { shop, admin } = await setUp("free");
    const load = await admin.load(PAGE, ROUTE);
    expect(load.status).toBe(403);
    expect((await load.json()).upgrade).toMatchObject({ feature: "referAFriend", plan: "growth" });
    expect((await admin.act(PAGE, ROUTE, form())).status).toBe(403);
    expect(await rawSettings(shop.id)).toBe("{}");
  });

  it("marks the settings and history screens as the referral app type", async () => {
    const { admin } = await setUp();
    const html = await (await admin.document(PAGE)).text();
    expect(html).toContain('data-app-type="referral"');
    const dashboard = await (await admin.document("/admin/dashboard")).text();
    expect(dashboard).toContain('data-app-type="affiliate"');
  });
});

describe("switching the program off", () => {
  it("withdraws the codes only when an enabled program is switched off (in the same transaction)", async () => {
    const shop = await buildShop();
    const db = shopDb(getDb(), shop.id);
    const on = { ...DEFAULT_REFERRAL_PROGRAM, enabled: true };
    // off → on and on → on withdraw nothing.
    await saveReferralProgram(db, on);
    await saveReferralProgram(db, { ...on, holdDays: 3 });
    // on → off reaches queueReferralWithdrawal. Until the storefront slice's
    // real one lands, its placeholder refuses, and the save is rolled back.
    await expect(saveReferralProgram(db, { ...on, enabled: false })).rejects.toThrow(
      "not built yet (slice STOREFRONT)",
    );
    expect(await stored(shop.id)).toMatchObject({ enabled: true, holdDays: 3 });
  });
});

describe("/api/v1/referral-program", () => {
  async function apiSetUp(plan = "growth") {
    const shop = await buildShop({ pricingPlan: plan });
    const { key } = await buildApiKey(shop.id);
    return { shop, api: new ApiClient(server.url, key) };
  }
  const put = (api: ApiClient, body: unknown) =>
    api.request("/api/v1/referral-program", {
      method: "PUT",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });

  it("reads the program and changes only the parts sent", async () => {
    const { shop, api } = await apiSetUp();
    const res = await api.get("/api/v1/referral-program");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await res.json()).toEqual(DEFAULT_REFERRAL_PROGRAM);

    const changed = await put(api, { enabled: true, friendReward: { value: 2000 }, widget: { title: "Share" } });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const expected = {
      ...DEFAULT_REFERRAL_PROGRAM,
      enabled: true,
      friendReward: { ...DEFAULT_REFERRAL_PROGRAM.friendReward, value: 2000 },
      widget: { ...DEFAULT_REFERRAL_PROGRAM.widget, title: "Share" },
    };
    expect(await changed.json()).toEqual(expected);
    expect(await stored(shop.id)).toEqual(expected);
    expect(await (await api.get("/api/v1/referral-program")).json()).toEqual(expected);

    // A whole program replaces the stored one.
    const whole = {
      ...expected,
      holdDays: 30,
      advocateReward: { kind: "store_credit", type: "fixed_amount", value: 500 },
    };
    expect((await put(api, whole)).status).toBe(200);
    expect(await stored(shop.id)).toEqual(whole);
  });

  it.each([
    [{ friendReward: { value: 0 } }, "friendReward.value"],
    [{ friendReward: { type: "percentage", value: 10_001 } }, "friendReward.value"],
    [{ advocateReward: { value: -5 } }, "advocateReward.value"],
    [{ holdDays: 1.5 }, "holdDays"],
    [{ holdDays: "14" }, "holdDays"],
    [{ fraud: { burstThreshold: 1 } }, "fraud.burstThreshold"],
    [{ widget: { color: "blue" } }, "widget.color"],
    [{ codeMode: "many" }, "codeMode"],
    [{ unknown: true }, "_"],
    [{ fraud: { extra: 1 } }, "fraud"],
  ])("refuses %j with 422 naming %s and stores nothing", async (body, field) => {
    const { shop, api } = await apiSetUp();
    const res = await put(api, body);
    expect(res.status).toBe(422);
    const error = (await res.json()).error;
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields)).toContain(field);
    // The API speaks English, never a translation key.
    expect(error.fields[field]).not.toMatch(/^[A-Z][A-Za-z.]*:[a-z]/);
    expect(await rawSettings(shop.id)).toBe("{}");
  });

  it("answers malformed JSON and a body that is not an object with 4xx", async () => {
    const { shop, api } = await apiSetUp();
    for (const body of ["{nope", "[1,2]", '"text"']) {
      const res = await put(api, body);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
    expect(await rawSettings(shop.id)).toBe("{}");
  });

  it("refuses a shop whose plan lacks refer-a-friend, and a request without a key", async () => {
    const { shop, api } = await apiSetUp("free");
    const res = await api.get("/api/v1/referral-program");
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
    expect((await put(api, { enabled: true })).status).toBe(403);
    expect(await rawSettings(shop.id)).toBe("{}");
    expect((await new ApiClient(server.url).get("/api/v1/referral-program")).status).toBe(401);
    const post = await api.post("/api/v1/referral-program", {});
    expect(post.status).toBe(405);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths["/api/v1/referral-program"]!).sort()).toEqual(["get", "put"]);
    expect(doc.components.schemas).toHaveProperty("ReferralProgram");
    const served = await (await new ApiClient(server.url).get("/api/v1/openapi.json")).json();
    expect(served.paths["/api/v1/referral-program"].put.responses).toHaveProperty("422");
  });
});
