import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { referralSchema } from "~/models/api/referral-schemas";
import { AdminClient, logInAs } from "../support/admin-client";
import { ApiClient, buildApiKey, buildOrder } from "../support/api-builders";
import { buildAdvocate, buildReferral, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The referral history over real HTTP against the built app: server-side
// filters, sort and keyset pages, the CSV export of the same filters, the
// referral screen (checks, reward, order link), approve / block with a note,
// the REST API, and tenant scoping (another shop's referral never shows).
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const LIST = "routes/$role.referrals.history";
const DETAIL = "routes/$role.referrals.$id";

async function setUp() {
  const shop = await buildShop();
  await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "America/New_York" } });
  const user = await buildUser(shop.id, { email: `admin-${shop.id}@example.com` });
  const admin = await logInAs(server.url, "admin", user.email);
  const anna = await buildAdvocate(shop.id, { email: "anna@example.com", firstName: "Anna", friendCode: "ANNA-10" });
  const bob = await buildAdvocate(shop.id, { email: "bob@shop.test", friendCode: "BOBFRIENDS" });
  return { shop, admin, anna, bob };
}

type Row = { id: string; orderName: string; friend: string; status: string };
const orders = (data: { referrals: Row[] }) => data.referrals.map((r) => r.orderName);

describe("referral history list", () => {
  it("pages 25 at a time newest first (ties by id), forwards and back, and oldest first when sorted so", async () => {
    const { shop, admin, anna } = await setUp();
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 60; i++) {
      await buildReferral(shop.id, anna.id, {
        orderName: `#${1000 + i}`,
        createdAt: new Date(base + Math.floor(i / 2) * 60_000),
      });
    }
    const pages = [await (await admin.load("/admin/referrals/history", LIST)).json()];
    while (pages[pages.length - 1].after) {
      pages.push(
        await (await admin.load(`/admin/referrals/history?after=${pages[pages.length - 1].after}`, LIST)).json(),
      );
    }
    expect(pages.map((p) => p.referrals.length)).toEqual([25, 25, 10]);
    const seen = pages.flatMap((p) => p.referrals.map((r: Row) => r.id));
    const all = await getDb().referral.findMany({
      where: { shopId: shop.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(seen).toEqual(all.map((r) => r.id));
    const back = await (await admin.load(`/admin/referrals/history?before=${pages[2].before}`, LIST)).json();
    expect(back.referrals.map((r: Row) => r.id)).toEqual(pages[1].referrals.map((r: Row) => r.id));

    const oldest = await (await admin.load("/admin/referrals/history?sort=created+asc", LIST)).json();
    expect(oldest.sort).toBe("created asc");
    expect(oldest.referrals.map((r: Row) => r.id)).toEqual(
      [...all]
        .reverse()
        .slice(0, 25)
        .map((r) => r.id),
    );
    const next = await (
      await admin.load(`/admin/referrals/history?sort=created+asc&after=${oldest.after}`, LIST)
    ).json();
    expect(next.referrals.map((r: Row) => r.id)).toEqual(
      [...all]
        .reverse()
        .slice(25, 50)
        .map((r) => r.id),
    );

    expect((await admin.load("/admin/referrals/history?after=%21%21", LIST)).status).toBe(200); // malformed: dropped
    expect((await admin.load("/admin/referrals/history?after=bm9wZQ", LIST)).status).toBe(404); // names nothing
  });

  it("filters by status, advocate e-mail, order name, code and shop-time dates; masks the friend", async () => {
    const { shop, admin, anna, bob } = await setUp();
    // The shop is in New York: 2026-01-10 runs from 05:00Z to 05:00Z the next day.
    await buildReferral(shop.id, anna.id, {
      orderName: "#A1",
      friendEmail: "carla.friend@example.org",
      createdAt: new Date("2026-01-10T04:59:00Z"),
    });
    await buildReferral(shop.id, anna.id, {
      orderName: "#A2",
      status: "rewarded",
      rewardCode: "THANKS-ANNA",
      createdAt: new Date("2026-01-10T05:00:00Z"),
    });
    await buildReferral(shop.id, bob.id, {
      orderName: "#B1",
      status: "blocked",
      friendCode: "BOBFRIENDS",
      createdAt: new Date("2026-01-11T04:59:59Z"),
    });
    await buildReferral(shop.id, bob.id, {
      orderName: "#B2",
      status: "cancelled",
      friendEmail: null,
      createdAt: new Date("2026-01-12T12:00:00Z"),
    });
    const other = await buildShop();
    const stranger = await buildAdvocate(other.id, { email: "anna@example.com" });
    await buildReferral(other.id, stranger.id, { orderName: "#A1-OTHER", createdAt: new Date("2026-01-10T12:00:00Z") });

    const get = async (query: string) => (await admin.load(`/admin/referrals/history?${query}`, LIST)).json();
    expect(orders(await get(""))).toEqual(["#B2", "#B1", "#A2", "#A1"]);
    expect(orders(await get("status=blocked"))).toEqual(["#B1"]);
    expect(orders(await get("status=rewarded"))).toEqual(["#A2"]);
    expect(orders(await get("q=anna%40example"))).toEqual(["#A2", "#A1"]);
    expect(orders(await get("q=%23B2"))).toEqual(["#B2"]);
    expect(orders(await get("q=bobfriends"))).toEqual(["#B2", "#B1"]); // the advocate's code
    expect(orders(await get("q=thanks-anna"))).toEqual(["#A2"]); // the reward code
    expect(orders(await get("q=nobody"))).toEqual([]);
    expect(orders(await get("since=2026-01-10&until=2026-01-10"))).toEqual(["#B1", "#A2"]);
    expect(orders(await get("until=2026-01-09"))).toEqual(["#A1"]);
    expect(orders(await get("status=pending&q=anna&since=2026-01-01"))).toEqual(["#A1"]);
    // Values that do not parse are dropped, not a failure.
    expect(orders(await get("status=shipped&since=2026-02-30&sort=price"))).toHaveLength(4);

    const listed = await get("");
    const a1 = listed.referrals.find((r: Row) => r.orderName === "#A1");
    expect(a1).toMatchObject({
      friend: "ca***@example.org",
      advocate: { id: anna.id, email: "anna@example.com" },
      reward: { kind: "discount_code", type: "money", amount: 1000, currency: "USD" },
    });
    expect(listed.referrals.find((r: Row) => r.orderName === "#B2").friend).toBe("");
    // The full address never reaches the list's page.
    const html = await (await admin.document("/admin/referrals/history")).text();
    expect(html).toContain("ca***@example.org");
    expect(html).not.toContain("carla.friend");
    expect(html).not.toContain("#A1-OTHER");
    expect(listed.none).toBe(false);
  });

  it("says when the shop has no referral at all (the empty state points to the program settings)", async () => {
    const { admin } = await setUp();
    expect((await (await admin.load("/admin/referrals/history", LIST)).json()).none).toBe(true);
    expect((await (await admin.load("/admin/referrals/history?q=x", LIST)).json()).none).toBe(false);
    const html = await (await admin.document("/admin/referrals/history")).text();
    expect(html).toContain("No referrals yet");
    expect(html).toContain('href="/admin/referrals"');
  });
});

describe("referral history CSV", () => {
  it("exports the filtered list with masked friends, guarded cells and only this shop's rows", async () => {
    const { shop, admin, anna, bob } = await setUp();
    await buildReferral(shop.id, anna.id, {
      orderName: "#C1",
      friendEmail: "dora@example.com",
      rewardKind: "discount_code",
      rewardValue: 1500,
      rewardCurrency: "%",
      createdAt: new Date("2026-02-01T10:00:00Z"),
      holdUntil: new Date("2026-02-15T10:00:00Z"),
    });
    await buildReferral(shop.id, bob.id, {
      orderName: "=HYPERLINK(1)",
      status: "rewarded",
      rewardKind: "store_credit",
      rewardValue: 1234,
      rewardCurrency: "EUR",
      rewardedAt: new Date("2026-02-20T00:00:00Z"),
      createdAt: new Date("2026-02-02T10:00:00Z"),
      holdUntil: new Date("2026-02-16T10:00:00Z"),
    });
    const other = await buildShop();
    const stranger = await buildAdvocate(other.id);
    await buildReferral(other.id, stranger.id, { orderName: "#THEIRS" });

    const res = await admin.document("/admin/referrals/history/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="referrals-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "id,created_at,order,advocate_email,friend_email,status,source,reward_kind,reward_amount,reward_unit,reward_code,hold_until,rewarded_at,blocked_rule",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      /^[^,]+,2026-02-02T10:00:00\.000Z,'=HYPERLINK\(1\),bob@shop\.test,fr\*\*\*@example\.com,rewarded,code,store_credit,12\.34,EUR,,2026-02-16T10:00:00\.000Z,2026-02-20T00:00:00\.000Z,$/,
    );
    expect(lines[2]).toMatch(
      /^[^,]+,2026-02-01T10:00:00\.000Z,#C1,anna@example\.com,do\*\*\*@example\.com,pending,code,discount_code,15\.00,%,,2026-02-15T10:00:00\.000Z,,$/,
    );

    const filtered = await (await admin.document("/admin/referrals/history/export?status=pending&q=anna")).text();
    expect(
      filtered
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[2]),
    ).toEqual(["#C1"]);
  });

  it("streams a list larger than one page of the export", async () => {
    const { shop, admin, anna } = await setUp();
    const base = Date.UTC(2026, 0, 1);
    await getDb().referral.createMany({
      data: Array.from({ length: 1203 }, (_, i) => ({
        shopId: shop.id,
        advocateId: anna.id,
        orderGid: `gid://shopify/Order/${9000 + i}`,
        orderName: `#${9000 + i}`,
        source: "link",
        reason: "Share link",
        currency: "USD",
        orderTotal: 100,
        holdUntil: new Date(base),
        rewardKind: "cash",
        rewardValue: 100,
        rewardCurrency: "USD",
        placedAt: new Date(base),
        // Many share a second: the keyset must break ties by id without losing a row.
        createdAt: new Date(base + Math.floor(i / 7) * 1000),
      })),
    });
    const text = await (await admin.document("/admin/referrals/history/export")).text();
    const names = text
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[2]);
    expect(names).toHaveLength(1203);
    expect(new Set(names).size).toBe(1203);
  });
});

describe("referral screen", () => {
  it("shows the advocate, friend, order, reason, checks, reward and hold", async () => {
    const { shop, admin, anna } = await setUp();
    const sale = await buildOrder(shop.id, { shopifyGid: "gid://shopify/Order/777001", name: "#1777" });
    const referral = await buildReferral(shop.id, anna.id, {
      orderGid: "gid://shopify/Order/777001",
      orderName: "#1777",
      friendEmail: "anna+2@example.com",
      status: "blocked",
      blockedRule: "self_referral",
      friendCode: "ANNA-10",
      // As slice ENGINE stores it: a key of Referrals with its values.
      reason: 'Referrals:detailTitle{"advocate":"anna@example.com"}',
      checks: [
        { rule: "self_referral", outcome: "block", detail: "checks.self_referral.same_email" },
        {
          rule: "burst",
          outcome: "pass",
          detail: "checks.burst.same_ip",
          values: { count: 2, minutes: 60, threshold: 5 },
        },
      ],
    });
    const data = (await (await admin.load(`/admin/referrals/${referral.id}`, DETAIL)).json()).referral;
    expect(data).toMatchObject({
      status: "blocked",
      advocate: { id: anna.id, email: "anna@example.com", friendCode: "ANNA-10", referrals: 1 },
      friend: { email: "anna+2@example.com" },
      order: { name: "#1777", number: "777001", saleId: sale.id },
      blockedRule: "self_referral",
      reward: { kind: "discount_code", type: "money", amount: 1000, state: "withheld" },
      canApprove: true,
      canBlock: false,
      override: null,
    });
    expect(data.checks).toHaveLength(2);

    const html = await (await admin.document(`/admin/referrals/${referral.id}`)).text();
    expect(html).toContain("The friend&#x27;s e-mail address is the advocate&#x27;s own.");
    expect(html).toContain("Visits or orders from one IP address within 60 minutes: 2 (limit 5).");
    expect(html).toContain(`href="/admin/sales/${sale.id}"`); // standalone: the sale this app recorded
    expect(html).toContain("Withheld: this referral is blocked");
    expect(html).toMatch(/id="referral-reason"[^>]*>Referral</); // the stored key, translated
  });

  it("answers the app's not-found for an unknown, malformed or another shop's id, reading or deciding", async () => {
    const { admin } = await setUp();
    const other = await buildShop();
    const stranger = await buildAdvocate(other.id);
    const theirs = await buildReferral(other.id, stranger.id, { orderName: "#THEIRS", status: "blocked" });
    for (const id of [theirs.id, "nope", "a.b", "x".repeat(65)]) {
      expect((await admin.load(`/admin/referrals/${id}`, DETAIL)).status).toBe(404);
      const page = await admin.document(`/admin/referrals/${id}`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain("#THEIRS");
    }
    // A NUL byte never reaches the database: refused before any route (4xx, not 500).
    expect((await admin.load("/admin/referrals/a%00b", DETAIL)).status).toBe(400);
    const res = await admin.act(`/admin/referrals/${theirs.id}`, DETAIL, { intent: "approve", note: "mine now" });
    expect(res.status).toBe(404);
    const after = await getDb().referral.findUniqueOrThrow({ where: { id: theirs.id } });
    expect([after.status, after.overrideNote]).toEqual(["blocked", null]);
  });

  it("refuses an override without a note or with a bad intent, changing nothing", async () => {
    const { shop, admin, anna } = await setUp();
    const referral = await buildReferral(shop.id, anna.id, { status: "blocked" });
    for (const body of [
      { intent: "approve" },
      { intent: "approve", note: "   " },
      { intent: "approve", note: "x".repeat(501) },
      { intent: "refund", note: "why not" },
    ]) {
      const res = await admin.act(`/admin/referrals/${referral.id}`, DETAIL, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const noNote = await (await admin.act(`/admin/referrals/${referral.id}`, DETAIL, { intent: "block" })).json();
    expect(noNote.error.fields.note).toBe("Write a note that says why.");
    const after = await getDb().referral.findUniqueOrThrow({ where: { id: referral.id } });
    expect([after.status, after.overrideNote, after.overriddenAt]).toEqual(["blocked", null, null]);
  });

  it("approves a blocked referral and blocks a pending one, keeping the note", async () => {
    const { shop, admin, anna } = await setUp();
    const blocked = await buildReferral(shop.id, anna.id, {
      status: "blocked",
      blockedRule: "similar_email",
      holdUntil: new Date(Date.now() + 7 * 86_400_000),
    });
    const res = await admin.act(`/admin/referrals/${blocked.id}`, DETAIL, {
      intent: "approve",
      note: "  Known customer, two addresses.  ",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ decided: "approve" });
    const approved = await getDb().referral.findUniqueOrThrow({ where: { id: blocked.id } });
    expect(approved).toMatchObject({ status: "pending", overrideNote: "Known customer, two addresses." });
    expect(approved.overriddenBy).toContain(`admin-${shop.id}@example.com`);
    expect(approved.overriddenAt).not.toBeNull();
    const shown = (await (await admin.load(`/admin/referrals/${blocked.id}`, DETAIL)).json()).referral;
    expect(shown.override).toMatchObject({ note: "Known customer, two addresses." });

    const pending = await buildReferral(shop.id, anna.id, { status: "pending" });
    const block = await admin.act(`/admin/referrals/${pending.id}`, DETAIL, { intent: "block", note: "Coupon site" });
    expect(block.status).toBe(200);
    expect(await getDb().referral.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({
      status: "blocked",
      overrideNote: "Coupon site",
    });
    // A decided one cannot be decided the same way again: 409, nothing changes.
    const again = await admin.act(`/admin/referrals/${pending.id}`, DETAIL, { intent: "block", note: "again" });
    expect(again.status).toBe(409);
    expect((await getDb().referral.findUniqueOrThrow({ where: { id: pending.id } })).overrideNote).toBe("Coupon site");
  });
});

describe("permissions and plan", () => {
  it("gives staff without the referrals area 403 with no data, and a plan without the feature no data", async () => {
    const shop = await buildShop();
    const advocate = await buildAdvocate(shop.id, { email: "secret-advocate@example.com" });
    const referral = await buildReferral(shop.id, advocate.id, { orderName: "#SECRET" });
    await buildUser(shop.id, { role: "staff", email: "sales-only@example.com", permissions: ["sales"] });
    const staff: AdminClient = await logInAs(server.url, "staff", "sales-only@example.com");
    for (const res of [
      await staff.load("/staff/referrals/history", LIST),
      await staff.load(`/staff/referrals/${referral.id}`, DETAIL),
      await staff.document("/staff/referrals/history/export"),
      await staff.act(`/staff/referrals/${referral.id}`, DETAIL, { intent: "block", note: "x" }),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("SECRET");
    }

    const free = await buildShop({ pricingPlan: "free" });
    const freeUser = await buildUser(free.id, { email: "free-owner@example.com" });
    const freeAdvocate = await buildAdvocate(free.id);
    await buildReferral(free.id, freeAdvocate.id, { orderName: "#FREEPLAN" });
    const freeAdmin = await logInAs(server.url, "admin", freeUser.email);
    for (const res of [
      await freeAdmin.load("/admin/referrals/history", LIST),
      await freeAdmin.document("/admin/referrals/history/export"),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain("#FREEPLAN");
    }
  });
});

describe("/api/v1/referrals", () => {
  async function apiSetUp() {
    const shop = await buildShop();
    const { key } = await buildApiKey(shop.id);
    const anna = await buildAdvocate(shop.id, { email: "anna.smith@gmail.com" });
    const bob = await buildAdvocate(shop.id, { email: "bob@shop.test" });
    const other = await buildShop();
    const stranger = await buildAdvocate(other.id, { email: "anna.smith@gmail.com" });
    const theirs = await buildReferral(other.id, stranger.id, { orderName: "#THEIRS" });
    return { shop, api: new ApiClient(server.url, key), anna, bob, theirs };
  }

  it("lists newest first with cursor pages and filters by status, advocate e-mail and created_at", async () => {
    const { shop, api, anna, bob } = await apiSetUp();
    const base = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 5; i++) {
      await buildReferral(shop.id, i % 2 ? bob.id : anna.id, {
        orderName: `#${i}`,
        status: i === 4 ? "rewarded" : "pending",
        createdAt: new Date(base + i * 86_400_000),
      });
    }
    const page1 = await (await api.get("/api/v1/referrals?limit=2")).json();
    expect(page1.data.map((r: { order_name: string }) => r.order_name)).toEqual(["#4", "#3"]);
    const page2 = await (await api.get(`/api/v1/referrals?limit=2&cursor=${page1.next_cursor}`)).json();
    const page3 = await (await api.get(`/api/v1/referrals?limit=2&cursor=${page2.next_cursor}`)).json();
    expect(page2.data.map((r: { order_name: string }) => r.order_name)).toEqual(["#2", "#1"]);
    expect(page3).toMatchObject({ next_cursor: null });
    expect(page3.data.map((r: { order_name: string }) => r.order_name)).toEqual(["#0"]);
    for (const row of [...page1.data, ...page2.data, ...page3.data]) referralSchema.parse(row);

    const names = async (query: string) =>
      (await (await api.get(`/api/v1/referrals?${query}`)).json()).data.map(
        (r: { order_name: string }) => r.order_name,
      );
    expect(await names("status=rewarded")).toEqual(["#4"]);
    // Compared as the program does: case, +tags and Gmail dots do not matter.
    expect(await names("advocate_email=AnnaSmith%2Bnews%40gmail.com")).toEqual(["#4", "#2", "#0"]);
    expect(await names("advocate_email=bob%40shop.test&status=pending")).toEqual(["#3", "#1"]);
    expect(await names("advocate_email=nobody%40example.com")).toEqual([]);
    expect(await names("since=2026-03-02&until=2026-03-04")).toEqual(["#2", "#1"]);
    expect(await names("since=2026-03-04T00:00:00Z")).toEqual(["#4", "#3"]);
    expect(await names("")).not.toContain("#THEIRS");
  });

  it("gets one referral with its checks and reward, masking the friend; another shop's is 404", async () => {
    const { shop, api, anna, theirs } = await apiSetUp();
    const referral = await buildReferral(shop.id, anna.id, {
      orderGid: "gid://shopify/Order/42",
      orderName: "#42",
      friendEmail: "friend@example.com",
      status: "rewarded",
      rewardKind: "discount_code",
      rewardValue: 1500,
      rewardCurrency: "%",
      rewardCode: "THANKS15",
      rewardedAt: new Date("2026-03-20T00:00:00Z"),
      checks: [{ rule: "burst", outcome: "pass", detail: "checks.burst.pass", values: { threshold: 5, minutes: 60 } }],
      reason: 'Referrals:detailTitle{"advocate":"anna.smith@gmail.com"}',
    });
    const res = await api.get(`/api/v1/referrals/${referral.id}`);
    expect(res.status).toBe(200);
    const body = referralSchema.parse(await res.json());
    expect(body).toMatchObject({
      id: referral.id,
      status: "rewarded",
      advocate: { id: anna.id, email: "anna.smith@gmail.com" },
      friend_email: "fr***@example.com",
      order_gid: "gid://shopify/Order/42",
      reason: "Referral", // the stored key in English
      reward: { kind: "discount_code", amount: null, currency: null, percent_bps: 1500, code: "THANKS15" },
      checks: [{ rule: "burst", outcome: "pass", detail: "checks.burst.pass", values: { threshold: 5, minutes: 60 } }],
      override: null,
    });
    expect(JSON.stringify(body)).not.toContain("friend@example.com");
    for (const path of [`/api/v1/referrals/${theirs.id}`, "/api/v1/referrals/unknown", "/api/v1/referrals/a.b"]) {
      const miss = await api.get(path);
      expect(miss.status, path).toBe(404);
      expect(await miss.text()).not.toContain("#THEIRS");
    }
  });

  it("answers bad query parameters with 422 naming the field, no key with 401, a plan without the feature with 403", async () => {
    const { api } = await apiSetUp();
    for (const [query, field] of [
      ["status=shipped", "status"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["since=yesterday", "since"],
      ["until=2026-02-30", "until"],
      ["advocate_email=not-an-email", "advocate_email"],
      ["cursor=%21%21", "cursor"],
    ] as const) {
      const res = await api.get(`/api/v1/referrals?${query}`);
      expect(res.status, query).toBe(422);
      expect(Object.keys((await res.json()).error.fields ?? {}), query).toContain(field);
    }
    expect((await new ApiClient(server.url).get("/api/v1/referrals")).status).toBe(401);
    // A plan without refer-a-friend: 403 with no referral in it.
    const free = await buildShop({ pricingPlan: "free" });
    const freeKey = (await buildApiKey(free.id)).key;
    // buildApiKey moves the shop to the plan that has the REST API; a downgrade since.
    await getDb().shop.update({ where: { id: free.id }, data: { pricingPlan: "free" } });
    const freeReferral = await buildReferral(free.id, (await buildAdvocate(free.id)).id, { orderName: "#FREEPLAN" });
    for (const path of ["/api/v1/referrals", `/api/v1/referrals/${freeReferral.id}`]) {
      const res = await new ApiClient(server.url, freeKey).get(path);
      expect(res.status, path).toBe(403);
      expect(await res.text()).not.toContain("#FREEPLAN");
    }
    expect((await api.post("/api/v1/referrals", {})).status).toBe(405);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = await (await fetch(server.url("/api/v1/openapi.json"))).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/referrals", "/api/v1/referrals/{id}"]));
    expect(doc.components.schemas.Referral.properties).toHaveProperty("friend_email");
    const params = doc.paths["/api/v1/referrals"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["status", "advocate_email", "since", "until", "limit", "cursor"]));
  });
});
